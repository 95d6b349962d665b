import DevKitTestSupport
import BinaryReading
import Foundation
import Provisioning
import Testing

/// Hostile bytes: every error is a value with an offset, never a trap.
@Suite struct BadInputTests {
    /// Every proper prefix of a real profile, DER and BER: an error naming an offset inside
    /// the prefix (the loop the issue asks for).
    @Test(arguments: ["fastlane-test.mobileprovision", "fastlane_core-very-capable-app-embedded.mobileprovision"])
    func truncatedAtEveryLength(_ name: String) throws {
        guard let bytes = try CorpusProfileTests.load(name) else { return }
        #expect(try ProfileReader.read(bytes).signature.isValid)
        var failures = 0
        for length in 0..<bytes.count {
            do {
                _ = try ProfileReader.read(Array(bytes[0..<length]))
                Issue.record("prefix of \(length) bytes was accepted")
            } catch {
                guard case .byteOffset(let offset)? = error.position, offset <= length else {
                    failures += 1
                    if failures < 5 { Issue.record("prefix \(length): no offset within the input: \(error)") }
                    continue
                }
            }
        }
        #expect(failures == 0)
    }

    static let malformed: [(String, [UInt8], Int, String)] = [
        ("length of 9 bytes", [0x30, 0x89, 1, 2, 3, 4, 5, 6, 7, 8, 9], 0, "overflows"),
        ("length 2^64-1", [0x30, 0x88, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 0, "runs past the end"),
        ("nested length past parent", [0x30, 0x04, 0x30, 0x7f, 0x00, 0x00], 2, "runs past the end"),
        ("indefinite primitive", [0x30, 0x80, 0x04, 0x80, 0x00, 0x00], 2, "indefinite length on a primitive"),
        ("indefinite without end", [0x30, 0x80, 0x05, 0x00], 4, "truncated"),
        ("trailing bytes", [0x30, 0x00, 0xff], 2, "trailing"),
    ]

    @Test(arguments: malformed.indices)
    func malformedLengths(_ index: Int) throws {
        let (what, bytes, offset, reason) = Self.malformed[index]
        let error = #expect(throws: DecodeError.self, "\(what)") { try CMSSignedData.parse(bytes) }
        #expect(error?.offset == offset, "\(what): \(String(describing: error))")
        #expect(error?.reason.contains(reason) == true, "\(what): \(String(describing: error))")
    }

    /// Deep nesting is refused before it can exhaust the stack.
    @Test func deepNesting() {
        let bytes = Array(repeating: [UInt8]([0x30, 0x80]), count: 10_000).flatMap { $0 }
        #expect(throws: DecodeError.self) { try CMSSignedData.parse(bytes) }
    }

    /// A well-formed DER SEQUENCE that is not a ContentInfo.
    @Test func notSignedData() {
        // SEQUENCE { OID 1.2.840.113549.1.7.1 (data), [0] { OCTET STRING "x" } }
        let bytes: [UInt8] = [0x30, 0x12, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01, 0xa0, 0x05, 0x04, 0x03, 0x78, 0x78, 0x78]
        let error = #expect(throws: DecodeError.self) { try CMSSignedData.parse(bytes) }
        #expect(error?.reason.contains("content type is 1.2.840.113549.1.7.1") == true)
        #expect(error?.offset == 0)
    }

    /// Random byte flips in a real profile: an error or a verdict, never a crash.
    @Test func randomFlips() throws {
        guard let bytes = try CorpusProfileTests.load("fastlane-test.mobileprovision") else { return }
        var random = SplitMix64(seed: 0x5eed)
        func next() -> Int { Int(random.next() % UInt64(bytes.count)) }
        var accepted = 0
        for _ in 0..<300 {
            var copy = bytes
            copy[next()] ^= UInt8(truncatingIfNeeded: next() | 1)
            if let signed = try? ProfileReader.read(copy), signed.signature.isValid { accepted += 1 }
        }
        // A flip in an unsigned part (a certificate's unused field, the signer chain) can
        // leave the verdict valid; most flips must not.
        #expect(accepted < 300 / 2)
    }
}
