import BinaryReading
import DevKitTestSupport
import Foundation
import PropertyList
import Provisioning
import Testing

/// Profiles signed at test time by `openssl cms -sign`, one per verdict.
@Suite(.serialized) struct GeneratedProfileTests {
    static let factory: ProfileFactory? = {
        guard ProfileFactory.opensslAvailable else {
            print("skipped: openssl not installed (Scripts/install-deps installs it)")
            return nil
        }
        return try? ProfileFactory()
    }()

    static let now = PlistDate(year: 2026, month: 6, day: 1, hour: 0, minute: 0, second: 0)!

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var devices: [String]?
        var getTaskAllow: Bool?
        var allDevices = false
        var kind: ProfileKind
    }

    static let kinds: [Case] = [
        Case(description: "development", devices: ["UDID-1", "UDID-2"], getTaskAllow: true, kind: .development),
        Case(description: "ad hoc", devices: ["UDID-1"], getTaskAllow: false, kind: .adHoc),
        Case(description: "ad hoc without get-task-allow", devices: ["UDID-1"], getTaskAllow: nil, kind: .adHoc),
        Case(description: "enterprise", devices: nil, getTaskAllow: false, allDevices: true, kind: .enterprise),
        Case(description: "app store", devices: nil, getTaskAllow: false, kind: .appStore),
    ]

    @Test(arguments: kinds)
    func typeFromDevicesAndGetTaskAllow(_ c: Case) throws {
        guard let factory = Self.factory else { return }
        let bytes = try factory.sign(try factory.payload(getTaskAllow: c.getTaskAllow, devices: c.devices, allDevices: c.allDevices))
        let signed = try ProfileReader.read(bytes)
        #expect(signed.signature.isValid, "\(signed.signature.summary)")
        #expect(signed.profile.kind == c.kind)
        #expect(signed.profile.provisionedDevices == (c.devices ?? []))
        #expect(signed.signature.signerChain.map(\.commonName) == ["Apple Development: Test Person (ABCDE12345)"])
    }

    @Test func modelFields() throws {
        guard let factory = Self.factory else { return }
        let signed = try ProfileReader.read(try factory.sign(try factory.payload()))
        let p = signed.profile
        #expect(p.name == "Test Profile")
        #expect(p.uuid == "11111111-2222-3333-4444-555555555555")
        #expect(p.teamIdentifiers == ["ABCDE12345"])
        #expect(p.applicationIdentifier == "ABCDE12345.com.example.app")
        #expect(p.timeToLive == 365)
        #expect(p.daysUntilExpiry(at: Self.now) == 214)
        guard case .parsed(let c)? = p.developerCertificates.first else { Issue.record("certificate"); return }
        #expect(c.commonName == "Apple Development: Test Person (ABCDE12345)")
        #expect(c.serialNumber == "1234")
        // Fingerprints agree with openssl's.
        let sha1 = try factory.openssl(["x509", "-in", factory.developer.certificate.path, "-noout", "-fingerprint", "-sha1"])
        #expect(sha1.replacingOccurrences(of: ":", with: "").contains(c.sha1Fingerprint))
        let sha256 = try factory.openssl(["x509", "-in", factory.developer.certificate.path, "-noout", "-fingerprint", "-sha256"])
        #expect(sha256.replacingOccurrences(of: ":", with: "").contains(c.sha256Fingerprint))
    }

    @Test func expired() throws {
        guard let factory = Self.factory else { return }
        let signed = try ProfileReader.read(try factory.sign(try factory.payload(expires: "2026-05-01T00:00:00Z")))
        #expect(signed.signature.isValid)
        #expect(signed.profile.isExpired(at: Self.now))
        #expect(signed.profile.daysUntilExpiry(at: Self.now) == -31)
    }

    /// One byte of the signed plist flipped: the digest step fails.
    @Test func tampered() throws {
        guard let factory = Self.factory else { return }
        var bytes = try factory.sign(try factory.payload())
        let range = try #require(bytes.firstRange(of: Array("Test Profile".utf8)))
        bytes[range.lowerBound] ^= 0x20
        let signed = try ProfileReader.read(bytes)
        #expect(!signed.signature.isValid)
        #expect(signed.signature.failure?.contains("content digest does not match") == true)
        #expect(signed.profile.name == "test Profile")
    }

    @Test func truncated() throws {
        guard let factory = Self.factory else { return }
        let bytes = try factory.sign(try factory.payload())
        for cut in [1, 100, bytes.count / 2, bytes.count - 1] {
            let error = #expect(throws: ProvisioningError.self) { try ProfileReader.read(Array(bytes[0..<cut])) }
            #expect(error?.message.contains("truncated") == true, "\(String(describing: error))")
        }
    }

    /// Signed content that is not id-data.
    @Test func wrongContentType() throws {
        guard let factory = Self.factory else { return }
        let bytes = try factory.sign(try factory.payload(), extra: ["-econtent_type", "1.2.840.113549.1.9.16.1.4"])
        let error = #expect(throws: ProvisioningError.self) { try ProfileReader.read(bytes) }
        #expect(error?.message.contains("signed content type is 1.2.840.113549.1.9.16.1.4") == true, "\(String(describing: error))")
    }

    /// Signed by another key, with the certificate swapped for one of the same subject and
    /// serial: the signature does not verify with the embedded certificate.
    @Test func signatureByAnotherKey() throws {
        guard let factory = Self.factory else { return }
        var bytes = try factory.sign(try factory.payload(), with: factory.impostor)
        let impostor = [UInt8](try factory.der(factory.impostor.certificate))
        let genuine = [UInt8](try factory.der(factory.developer.certificate))
        try #require(impostor.count == genuine.count)
        let range = try #require(bytes.firstRange(of: impostor))
        bytes.replaceSubrange(range, with: genuine)
        let signed = try ProfileReader.read(bytes)
        #expect(signed.signature.digest == .valid)
        guard case .invalid(let why) = signed.signature.signature else { Issue.record("signature accepted"); return }
        #expect(why.contains("does not verify"))
    }

    /// The last bytes of a DER SignedData are the signature: flipping one breaks it.
    @Test func signatureBytesFlipped() throws {
        guard let factory = Self.factory else { return }
        var bytes = try factory.sign(try factory.payload())
        bytes[bytes.count - 1] ^= 0x01
        let signed = try ProfileReader.read(bytes)
        #expect(signed.signature.digest == .valid)
        #expect(signed.signature.signature != .valid)
    }

    @Test func chainToTrustRoots() throws {
        guard let factory = Self.factory else { return }
        let bytes = try factory.sign(try factory.payload(), with: factory.profileSigner)
        let root = try TrustRoots.certificates(inFile: [UInt8](try Data(contentsOf: factory.rootCA.certificate)))
        let trusted = try ProfileReader.read(bytes, trustRoots: TrustRoots(certificates: root))
        #expect(trusted.signature.chain == .trusted(root: "Test Root CA"))
        #expect(trusted.signature.isValid)
        #expect(trusted.signature.summary == "signature valid, chain verified to \"Test Root CA\"")
        #expect(trusted.signature.signerChain.map(\.commonName) == ["Test Provisioning Profile Signing", "Test Root CA"])

        let other = try TrustRoots.certificates(inFile: [UInt8](try factory.der(factory.otherRoot.certificate)))
        let untrusted = try ProfileReader.read(bytes, trustRoots: TrustRoots(certificates: other))
        #expect(!untrusted.signature.isValid)
        guard case .untrusted = untrusted.signature.chain else { Issue.record("chain accepted"); return }

        let unchecked = try ProfileReader.read(bytes)
        #expect(unchecked.signature.summary == "signature valid, chain not verified (no trust roots given)")
    }

    /// An embedded (CMS) certificate that does not parse: an error at its offset.
    @Test func embeddedCertificateThatDoesNotParse() throws {
        guard let factory = Self.factory else { return }
        var bytes = try factory.sign(try factory.payload())
        let certificate = [UInt8](try factory.der(factory.developer.certificate))
        let range = try #require(bytes.firstRange(of: certificate))
        // The TBSCertificate's SEQUENCE tag (after the outer 4-byte header) becomes a SET.
        bytes[range.lowerBound + 4] = 0x31
        let error = #expect(throws: ProvisioningError.self) { try ProfileReader.read(bytes) }
        #expect(error?.position == .byteOffset(range.lowerBound))
        #expect(error?.message.contains("embedded certificate does not parse") == true, "\(String(describing: error))")
    }

    /// A payload certificate that does not parse is reported, not fatal.
    @Test func unreadableDeveloperCertificate() throws {
        guard let factory = Self.factory else { return }
        var payload = try factory.payload()
        let start = try #require(payload.range(of: "<data>"))
        let end = try #require(payload.range(of: "</data>"))
        payload.replaceSubrange(start.upperBound..<end.lowerBound, with: "AAECAwQ=")
        let signed = try ProfileReader.read(try factory.sign(payload))
        guard case .unreadable(let index, _)? = signed.profile.developerCertificates.first else { Issue.record("parsed"); return }
        #expect(index == 0)
    }
}
