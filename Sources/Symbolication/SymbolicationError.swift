import BinaryReading
import Diagnostics
import ElfUtils

/// Why an image could not be symbolicated.
public struct SymbolicationError: Error, Equatable, Sendable, CustomStringConvertible, DiagnosticConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file could not be opened or read.
        case unreadable
        /// The object file is malformed (truncated, corrupt headers): `offset` says where.
        case malformed
        /// The file is not a format devkit reads (or not this architecture).
        case unsupportedFormat
        /// The build-id/UUID differs from the one the caller expected.
        case identifierMismatch
        /// libdw refused the DWARF.
        case debugInfo
    }

    public var kind: Kind
    /// The file the problem is in.
    public var path: String
    /// Byte offset of the problem, for malformed files.
    public var offset: Int?
    public var message: String

    public init(kind: Kind, path: String, offset: Int? = nil, message: String) {
        self.kind = kind
        self.path = path
        self.offset = offset
        self.message = message
    }

    /// `path: offset 0x1a2: message`, the project's format for errors in binary files.
    public var description: String { "\(path): \(detail)" }

    /// The description without the path: `offset 0x1a2: message`, or the message.
    public var detail: String {
        if let offset { return "\(SourcePosition.byteOffset(offset)): \(message)" }
        return message
    }

    public var diagnostic: Diagnostic {
        let kind: DiagnosticKind = switch self.kind {
        case .unreadable: .io
        case .malformed: .malformed
        case .unsupportedFormat, .debugInfo: .input
        case .identifierMismatch: .identifierMismatch
        }
        return Diagnostic(file: path, position: offset.map(SourcePosition.byteOffset), message: message, kind: kind)
    }

    static func malformed(_ error: DecodeError, path: String) -> SymbolicationError {
        SymbolicationError(kind: .malformed, path: path, offset: error.offset, message: "\(error.section): \(error.reason)")
    }

    static func debugInfo(_ error: DWError, path: String) -> SymbolicationError {
        SymbolicationError(kind: .debugInfo, path: path, message: "cannot read DWARF: \(error)")
    }
}

extension DiagnosticKind {
    /// A binary whose build-id/UUID is not the one expected.
    public static let identifierMismatch = DiagnosticKind(rawValue: "identifier-mismatch")
}
