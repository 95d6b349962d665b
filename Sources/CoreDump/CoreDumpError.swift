import Diagnostics

/// A core file devkit could not read at all, with the path, what went wrong and the
/// library's (or the OS's) own code and message from when it happened.
public struct CoreDumpError: Error, Hashable, Sendable, CustomStringConvertible, DiagnosticConvertible {
    /// What kind of failure, so callers can tell "wrong file" from "damaged core".
    public enum Kind: String, Hashable, Sendable {
        /// The file could not be opened or read; `code` is the `errno`.
        case unreadable
        /// The file is not ELF at all (empty, random bytes, another format); `code` is `elf_errno()`.
        case notELF
        /// The file is ELF but its `e_type` is not `ET_CORE` (an executable, a library, an object).
        case notCore
        /// The core is ELF but its contents are unusable (truncated, no `NT_PRSTATUS`, bad
        /// segments); `code` is `dwfl_errno()` or `elf_errno()`.
        case damaged
    }

    /// The file the error is about: the core, or the executable given with it.
    public var path: String
    /// Which failure: the file itself, its format, or its contents.
    public var kind: Kind
    /// `errno`, `elf_errno()` or `dwfl_errno()` when the failure came from there, else 0.
    public var code: Int32
    /// A sentence saying what is wrong, the library's text included.
    public var message: String
    /// The C function that failed (`elf_begin`, `dwfl_core_file_report`, …), when one did.
    public var operation: String?
    /// The byte offset the failure is at, when known (where a truncated core ends).
    public var offset: Int?

    /// An error about `path`; `code` and `operation` come from the failing C call, if any.
    public init(path: String, kind: Kind, code: Int32 = 0, message: String, operation: String? = nil, offset: Int? = nil) {
        self.offset = offset
        self.path = path
        self.kind = kind
        self.code = code
        self.message = message
        self.operation = operation
    }

    /// `PATH: [offset 0x…: ]error: message (operation)`, the diagnostic's form.
    public var description: String { diagnostic.description }

    public var diagnostic: Diagnostic {
        Diagnostic(file: path, position: offset.map(SourcePosition.byteOffset), message: message + (operation.map { " (\($0))" } ?? ""),
                   kind: kind == .unreadable ? .io : .malformed)
    }
}
