import Diagnostics

/// A failure reported by libdw or libelf, with the library's message captured when it happened.
public struct DWError: Error, Equatable, Sendable, CustomStringConvertible, DiagnosticConvertible {
    /// Which library reported it.
    public enum Library: String, Sendable { case libdw, libelf }

    public var library: Library
    /// The library's error number (`dwarf_errno()` / `elf_errno()`), 0 if none was set.
    public var code: Int32
    /// The library's text for `code` (`dwarf_errmsg` / `elf_errmsg`).
    public var message: String
    /// The C function that failed, e.g. `dwarf_begin_elf`.
    public var operation: String

    public init(library: Library, code: Int32, message: String, operation: String) {
        self.library = library
        self.code = code
        self.message = message
        self.operation = operation
    }

    public var description: String { "\(operation): \(message)" }

    public var diagnostic: Diagnostic { Diagnostic(message: description, kind: .malformed) }
}
