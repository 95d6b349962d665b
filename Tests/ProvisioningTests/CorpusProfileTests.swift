import BinaryReading
import Foundation
import PropertyList
import Provisioning
import Testing

/// The real profiles in ../shared/corpus/provisioning, checked against SOURCES.md's table
/// (type, devices, certificates, encoding, openssl's verify verdict).
@Suite struct CorpusProfileTests {
    struct Expected: Sendable, CustomStringConvertible {
        var file: String
        var kind: ProfileKind
        var devices: Int
        var certificates: Int
        var encoding: ProfileEncoding = .der
        var platforms: [String] = ["iOS"]
        var description: String { file }
    }

    static let valid: [Expected] = [
        Expected(file: "fastlane-test.mobileprovision", kind: .appStore, devices: 0, certificates: 1),
        Expected(file: "match-AppStore_tools.fastlane.app.mobileprovision", kind: .appStore, devices: 0, certificates: 1),
        Expected(file: "fastlane_core-very-capable-app-embedded.mobileprovision", kind: .development, devices: 1, certificates: 1, encoding: .berIndefiniteLength),
        Expected(file: "gym-AppStore_net.sunapps.9.watch.mobileprovision", kind: .appStore, devices: 0, certificates: 1),
        Expected(file: "appinfo-ios_development.mobileprovision", kind: .development, devices: 1, certificates: 1),
        Expected(file: "appinfo-ios_adhoc.mobileprovision", kind: .adHoc, devices: 1, certificates: 1),
        Expected(file: "appinfo-ios_appstore.mobileprovision", kind: .appStore, devices: 0, certificates: 1),
        Expected(file: "appinfo-macos_development.provisionprofile", kind: .development, devices: 1, certificates: 1, platforms: ["OSX"]),
        Expected(file: "appinfo-macos_appstore.provisionprofile", kind: .appStore, devices: 0, certificates: 1, platforms: ["OSX"]),
        Expected(file: "appinfo-profile.mobileprovision", kind: .development, devices: 1, certificates: 2),
        Expected(file: "appinfo-NotificationService.appex-embedded.mobileprovision", kind: .adHoc, devices: 90, certificates: 1),
        Expected(file: "magicbell-embedded.mobileprovision", kind: .development, devices: 5, certificates: 2, platforms: ["iOS", "xrOS", "visionOS"]),
    ]

    static func load(_ name: String) throws -> [UInt8]? {
        guard Corpus.files("provisioning") != nil else { return nil }
        return try Corpus.bytes(Corpus.root.appendingPathComponent("provisioning/\(name)"))
    }

    @Test(arguments: valid)
    func readsAndVerifies(_ expected: Expected) throws {
        guard let bytes = try Self.load(expected.file) else { return }
        let signed = try ProfileReader.read(bytes)
        #expect(signed.signature.isValid, "\(signed.signature.summary)")
        #expect(signed.signature.digest == .valid)
        #expect(signed.signature.signature == .valid)
        #expect(signed.signature.chain == .notVerified)
        #expect(signed.encoding == expected.encoding)
        let p = signed.profile
        #expect(p.kind == expected.kind)
        #expect(p.provisionedDevices.count == expected.devices)
        #expect(p.developerCertificates.count == expected.certificates)
        #expect(p.platforms == expected.platforms)
        #expect(!p.uuid.isEmpty && !p.name.isEmpty)
        // Every corpus profile has expired (SOURCES.md); the newest on 2025-10-18.
        #expect(p.isExpired(at: PlistDate(year: 2025, month: 10, day: 19, hour: 0, minute: 0, second: 0)!))
        for certificate in p.developerCertificates {
            guard case .parsed(let c) = certificate else { Issue.record("unreadable certificate"); continue }
            #expect(c.sha1Fingerprint.count == 40 && c.sha256Fingerprint.count == 64)
            #expect(c.notValidBefore < c.notValidAfter)
        }
    }

    @Test func fieldsOfOneProfile() throws {
        guard let bytes = try Self.load("fastlane-test.mobileprovision") else { return }
        let p = try ProfileReader.read(bytes).profile
        #expect(p.name == "tools.fastlane.app AppStore")
        #expect(p.teamIdentifiers == ["439BBM9367"])
        #expect(p.teamName == "Felix Krause")
        #expect(p.applicationIdentifier == "439BBM9367.tools.fastlane.app")
        #expect(p.bundleIdentifierPattern == "tools.fastlane.app")
        #expect(p.expirationDate.iso8601 == "2016-11-07T20:58:52Z")
        guard case .parsed(let c)? = p.developerCertificates.first else { Issue.record("no certificate"); return }
        #expect(c.commonName == "iPhone Distribution: Felix Krause (439BBM9367)")
        #expect(c.organizationalUnit == "439BBM9367")
    }

    /// The signer chain embedded by Apple: leaf, intermediate, (root).
    @Test func signerChainFromEmbeddedCertificates() throws {
        guard let bytes = try Self.load("appinfo-ios_development.mobileprovision") else { return }
        let chain = try ProfileReader.read(bytes).signature.signerChain.map(\.commonName)
        #expect(chain == ["Apple iPhone OS Provisioning Profile Signing", "Apple iPhone Certification Authority", "Apple Root CA"])
    }

    /// match-test.provisionprofile: 3 bytes of the content changed without re-signing.
    @Test func tamperedProfileIsRejected() throws {
        guard let bytes = try Self.load("match-test.provisionprofile") else { return }
        let signed = try ProfileReader.read(bytes)
        #expect(!signed.signature.isValid)
        guard case .invalid(let why) = signed.signature.digest else { Issue.record("digest accepted"); return }
        #expect(why.contains("content digest does not match"))
        // The signature over the (unchanged) signed attributes still verifies: only the digest step fails.
        #expect(signed.signature.signature == .valid)
    }

    @Test(arguments: ["appinfo-invalid_empty.mobileprovision", "gym-dummy.mobileprovision"])
    func emptyFileIsAClearError(_ name: String) throws {
        guard let bytes = try Self.load(name) else { return }
        let error = #expect(throws: ProvisioningError.self) { try ProfileReader.read(bytes) }
        #expect(error?.message.contains("empty file") == true)
        #expect(error?.position == .byteOffset(0))
    }

    @Test(arguments: ["spaceship-downloaded_provisioning_profile.mobileprovision", "appinfo-plist.mobileprovision", "appinfo-bplist.mobileprovision", "appinfo-invalid_missing_plist_block.mobileprovision", "appinfo-invalid_missing_plist_tag.mobileprovision"])
    func unsignedPlistIsNotCMS(_ name: String) throws {
        guard let bytes = try Self.load(name) else { return }
        let error = #expect(throws: ProvisioningError.self) { try ProfileReader.read(bytes) }
        #expect(error?.message.contains("not a CMS SignedData") == true)
        #expect(error?.message.contains("unsigned") == true)
    }

    /// BER indefinite lengths, and a payload whose <data> is not base64: the CMS layer reads
    /// (openssl verifies it), the plist error names the content offset and the line.
    @Test func signedPayloadThatDoesNotParse() throws {
        guard let bytes = try Self.load("appinfo-signed_plist.mobileprovision") else { return }
        let error = #expect(throws: ProvisioningError.self) { try ProfileReader.read(bytes) }
        #expect(error?.message.contains("base64") == true)
        #expect(error?.message.contains("at 21:8") == true)
        let signedData = try CMSSignedData.parse(bytes)
        #expect(try CMSVerifier.verify(signedData, trustRoots: nil).isValid)
    }
}
