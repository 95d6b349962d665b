import BinaryReading
import Diagnostics

/// A parse or conversion failure: which file, where in it, and what was wrong.
public struct PlistError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's path as the user named it (`-` or `<stdin>` for standard input); nil when unknown.
    public var file: String?
    /// Where the problem is, when it has a place.
    public var position: SourcePosition?
    /// What was wrong, for a person.
    public var message: String
    /// What kind of problem it is, for the few that callers tell apart (lint rule ids); nil otherwise.
    public var code: Code?

    /// Problems a caller may want to tell apart from other parse errors.
    public enum Code: Hashable, Sendable {
        /// A dictionary names the same key twice.
        case duplicateKey
    }

    public init(file: String? = nil, position: SourcePosition?, message: String, code: Code? = nil) {
        self.file = file
        self.position = position
        self.message = message
        self.code = code
    }

    /// Adds the file name if the error does not carry one yet.
    public func inFile(_ name: String) -> PlistError {
        var copy = self
        if copy.file == nil { copy.file = name }
        return copy
    }

    /// `file:line:col: message`, `file: offset 0x1a: message` or `file: message`.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        switch position {
        case .text(let line, let column)?:
            if parts.isEmpty { parts.append("\(line):\(column)") } else { parts[0] += ":\(line):\(column)" }
        case .line(let line)?:
            if parts.isEmpty { parts.append("\(line)") } else { parts[0] += ":\(line)" }
        case .byteOffset?:
            parts.append(position?.description ?? "")
        case nil:
            break
        }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}

extension PlistError: DiagnosticConvertible {
    public var diagnostic: Diagnostic {
        Diagnostic(file: file, position: position, message: message, kind: code == .duplicateKey ? .duplicateKey : .malformed)
    }
}

extension DiagnosticKind {
    /// A dictionary names the same key twice.
    public static let duplicateKey = DiagnosticKind(rawValue: "duplicate-key")
}

extension PlistError {
    init(_ decode: DecodeError) {
        self.init(position: .byteOffset(decode.offset), message: "\(decode.section): \(decode.reason)")
    }
}
