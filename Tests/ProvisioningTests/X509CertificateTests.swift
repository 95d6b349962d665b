import BinaryReading
import DevKitTestSupport
import Foundation
import PropertyList
import Testing

@testable import Provisioning

/// libcrypto's certificates and digests (LibCryptoCalls) against the openssl command and the
/// FIPS 180 examples.
@Suite struct X509CertificateTests {
    static let factory: ProfileFactory? = {
        guard ProfileFactory.opensslAvailable else {
            print("skipped: openssl not installed")
            return nil
        }
        return try? ProfileFactory()
    }()

    /// A self-signed certificate made by `openssl req` with `arguments` after the usual ones.
    static func make(_ name: String, subject: String, key: String = "rsa:2048", _ arguments: [String] = []) throws -> URL? {
        guard let factory else { return nil }
        let cert = factory.directory.appendingPathComponent("\(name).pem")
        try factory.openssl(["req", "-x509", "-newkey", key, "-nodes", "-keyout", factory.directory.appendingPathComponent("\(name).key").path,
                             "-out", cert.path, "-days", "30", "-utf8", "-subj", subject] + arguments)
        return cert
    }

    /// What `openssl x509` prints of one field (`-subject`, `-serial`…), its `name=` cut.
    static func field(_ certificate: URL, _ option: String) throws -> String {
        let out = try factory!.openssl(["x509", "-in", certificate.path, "-noout", option, "-nameopt", "RFC2253,-esc_msb", "-dateopt", "iso_8601"])
        let line = out.trimmingCharacters(in: .newlines)
        return String(line[line.index(after: line.firstIndex(of: "=")!)...])
    }

    static func date(_ text: String) -> PlistDate? {
        PlistDate(iso8601: Array(text.replacingOccurrences(of: " ", with: "T").utf8))
    }

    @Test(arguments: [
        ("rsa", "/CN=Apple Development: Test Person (ABCDE12345)/OU=ABCDE12345/O=Test Person/C=US", "rsa:2048"),
        ("ec", "/CN=Apple Distribution: Société Générale (FGHIJ67890)/OU=FGHIJ67890/O=Société Générale/C=FR", "ec:" ),
        ("no-cn", "/O=Zürich Apps, Ltd./C=CH", "rsa:2048"),
    ])
    func fieldsAgreeWithOpenSSL(_ name: String, _ subject: String, _ key: String) throws {
        guard let factory = Self.factory else { return }
        var keyOption = key
        var extra: [String] = ["-set_serial", "0x00C0FFEE1234"]
        if key == "ec:" {
            keyOption = "ec"
            extra += ["-pkeyopt", "ec_paramgen_curve:P-256"]
        }
        guard let pem = try Self.make(name, subject: subject, key: keyOption, extra) else { return }
        let certificate = try X509Certificate(der: [UInt8](try factory.der(pem)))
        let summary = CertificateSummary(certificate)

        let subjectText = try Self.field(pem, "-subject")
        #expect(certificate.subjectText == subjectText)
        #expect(certificate.issuerText == (try Self.field(pem, "-issuer")))
        let cn = subjectText.split(separator: ",").first { $0.hasPrefix("CN=") }.map { String($0.dropFirst(3)) }
        #expect(certificate.commonName == cn)
        #expect(summary.commonName == cn ?? subjectText)
        #expect(summary.organizationalUnit == subjectText.split(separator: ",").first { $0.hasPrefix("OU=") }.map { String($0.dropFirst(3)) })
        #expect(summary.serialNumber == (try Self.field(pem, "-serial")))
        #expect(summary.notValidBefore == Self.date(try Self.field(pem, "-startdate")))
        #expect(summary.notValidAfter == Self.date(try Self.field(pem, "-enddate")))
        #expect(certificate.issued(certificate), "self-signed")
    }

    /// A name's text: a value that only looks like RFC 2253's hex form (a string starting with
    /// `#`) is escaped; a value that is not a string is shown in that form, unescaped.
    @Test func nameTextTellsStringsFromHexValues() {
        let name: [[X509Certificate.Attribute]] = [
            [.init(type: "2.5.4.3", value: "#AB", isText: true)],
            [.init(type: "2.5.4.10", value: "#0C024142", isText: false), .init(type: "2.5.4.11", value: "a,b", isText: true)],
        ]
        #expect(X509Decoding.text(of: name) == "O=#0C024142+OU=a\\,b,CN=\\#AB")
    }

    @Test func issuedFollowsNamesAndSignatures() throws {
        guard let factory = Self.factory else { return }
        let root = try X509Certificate(der: [UInt8](try factory.der(factory.rootCA.certificate)))
        let signer = try X509Certificate(der: [UInt8](try factory.der(factory.profileSigner.certificate)))
        let other = try X509Certificate(der: [UInt8](try factory.der(factory.otherRoot.certificate)))
        let developer = try X509Certificate(der: [UInt8](try factory.der(factory.developer.certificate)))
        let impostor = try X509Certificate(der: [UInt8](try factory.der(factory.impostor.certificate)))
        #expect(root.issued(signer))
        #expect(!signer.issued(root))
        #expect(!other.issued(signer))
        // The same subject and issuer names, another key: the signature decides.
        #expect(developer.issued(developer))
        #expect(!impostor.issued(developer))
        #expect(root == (try X509Certificate(der: root.der)))
        #expect(root != other)
    }

    /// Bad DER is an error, never a crash: every truncation, a trailing byte, garbage.
    @Test func damagedDERIsAnError() throws {
        guard let factory = Self.factory else { return }
        let der = [UInt8](try factory.der(factory.developer.certificate))
        for length in 0..<der.count {
            #expect(throws: DecodeError.self) { try X509Certificate(der: Array(der[..<length])) }
        }
        let trailing = #expect(throws: DecodeError.self) { try X509Certificate(der: der + [0]) }
        #expect(trailing?.reason.hasPrefix("not a DER certificate") == true)
        #expect(throws: DecodeError.self) { try X509Certificate(der: Array(repeating: 0x30, count: 64)) }
        // Every byte flipped in turn: parsed or refused, never a trap; a flip inside the signed
        // part that still parses no longer verifies against the issuer.
        let issuer = try X509Certificate(der: der)
        var refused = 0
        for i in der.indices {
            var damaged = der
            damaged[i] ^= 0xff
            do {
                let parsed = try X509Certificate(der: damaged)
                #expect(!issuer.issued(parsed), "byte \(i) flipped still verifies")
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0)
    }

    /// FIPS 180-4's "abc" and the empty message.
    @Test func digestsOfKnownMessages() {
        let abc = Array("abc".utf8)
        #expect(Hex.upper(DigestAlgorithm.sha1.hash(abc)) == "A9993E364706816ABA3E25717850C26C9CD0D89D")
        #expect(Hex.upper(DigestAlgorithm.sha256.hash(abc)) == "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")
        #expect(Hex.upper(DigestAlgorithm.sha384.hash(abc)) == "CB00753F45A35E8BB5A03D699AC65007272C32AB0EDED1631A8B605A43FF5BED8086072BA1E7CC2358BAECA134C825A7")
        #expect(Hex.upper(DigestAlgorithm.sha512.hash(abc))
            == "DDAF35A193617ABACC417349AE20413112E6FA4E89A97EA20A9EEEE64B55D39A2192992A274FC1A836BA3C23A3FEEBBD454D4423643CE80E2A9AC94FA54CA49F")
        #expect(Hex.upper(DigestAlgorithm.sha256.hash([])) == "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855")
        #expect(Hex.upper(DigestAlgorithm.sha1.hash(UnsafeRawBufferPointer(start: nil, count: 0))) == "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709")
    }

    /// Larger inputs of several sizes against `openssl dgst`.
    @Test(arguments: [1, 63, 64, 65, 1000, 1 << 20])
    func digestsAgreeWithOpenSSL(_ count: Int) throws {
        guard let factory = Self.factory else { return }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let file = factory.directory.appendingPathComponent("digest-\(count).bin")
        try Data(bytes).write(to: file)
        for (algorithm, name) in [(DigestAlgorithm.sha1, "-sha1"), (.sha256, "-sha256"), (.sha384, "-sha384"), (.sha512, "-sha512")] {
            let out = try factory.openssl(["dgst", name, "-r", file.path])
            #expect(out.split(separator: " ").first.map { $0.uppercased() } == Hex.upper(algorithm.hash(bytes)), "\(name) of \(count) bytes")
        }
    }
}
