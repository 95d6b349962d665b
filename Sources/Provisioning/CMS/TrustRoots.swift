import BinaryReading
import System
import SwiftASN1

/// Certificates the user trusts (`--trust-roots DIR`), parsed.
public struct TrustRoots: Sendable {
    public var certificates: [X509Certificate]

    public init(certificates: [X509Certificate]) { self.certificates = certificates }

    /// Reads a PEM file (one or more certificates) or a DER certificate.
    public static func certificates(inFile bytes: [UInt8]) throws -> [X509Certificate] {
        if bytes.first == 0x30 { return [try X509Certificate(der: bytes)] }
        let documents = try PEMDocument.parseMultiple(pemString: String(decoding: bytes, as: UTF8.self))
        return try documents.filter { $0.discriminator == "CERTIFICATE" }.map { try X509Certificate(der: $0.derBytes) }
    }

    /// Every certificate in the `.pem`, `.crt`, `.cer` and `.der` files of `directory`.
    public static func load(directory: String) throws(ProvisioningError) -> TrustRoots {
        let names: [String]
        do { names = try FileIO.directoryEntries(directory) } catch {
            throw ProvisioningError(file: directory, message: error.reason)
        }
        var certificates: [X509Certificate] = []
        for name in names where [".pem", ".crt", ".cer", ".der"].contains(where: { name.lowercased().hasSuffix($0) }) {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            do {
                certificates += try Self.certificates(inFile: try FileIO.read(path, kind: .profile))
            } catch {
                throw ProvisioningError(file: path, message: "not a certificate (PEM or DER): \(error)")
            }
        }
        guard !certificates.isEmpty else {
            throw ProvisioningError(file: directory, message: "no certificates (.pem, .crt, .cer, .der) in the trust-roots directory")
        }
        return TrustRoots(certificates: certificates)
    }
}
