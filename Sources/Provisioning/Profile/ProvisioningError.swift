import BinaryReading
import Diagnostics
import PropertyList

/// A profile, app or archive that could not be read, with where (file, then a byte offset or
/// a line:column in the embedded plist) and why.
public struct ProvisioningError: Error, Sendable, Equatable, CustomStringConvertible, DiagnosticConvertible {
    /// The file (or `archive.ipa!Payload/App.app/embedded.mobileprovision`).
    public var file: String?
    /// Byte offset for binary structures (CMS, Mach-O, zip); line:column in a text plist.
    public var position: SourcePosition?
    public var message: String

    public init(file: String? = nil, position: SourcePosition? = nil, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    /// An error reported as a `Diagnostic` (an archive's, from `UntrustedZip`).
    public init(_ diagnostic: Diagnostic) {
        self.init(file: diagnostic.file, position: diagnostic.position, message: diagnostic.message)
    }

    public init(_ error: DecodeError, file: String? = nil) {
        self.init(file: file, position: .byteOffset(error.offset), message: "\(error.section): \(error.reason)")
    }

    public func inFile(_ name: String) -> ProvisioningError {
        var copy = self
        if copy.file == nil { copy.file = name }
        return copy
    }

    /// `file: offset 0x1a2: error: message`, or `file:line:col: error: message`.
    public var description: String {
        guard file != nil || position != nil else { return "error: \(message)" }
        return diagnostic.inFile("<input>").description
    }

    public var diagnostic: Diagnostic { Diagnostic(file: file, position: position, message: message) }
}
