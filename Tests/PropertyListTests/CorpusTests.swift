import Foundation
import Testing
@testable import PropertyList
import PropertyListTestSupport

/// The shared corpus: every valid file parses, every invalid one is rejected with a position.
@Suite struct CorpusTests {
    /// Files plistlib accepts that devkit rejects on purpose (devkit is stricter).
    static let strictlyRejected: [String: String] = [
        // Two `<key></key>` in one dict: plistlib keeps the last, devkit refuses duplicate
        // keys (a silent overwrite hides a bug in a hand-edited file).
        "libplist-empty_keys.plist": "duplicate key \"\" (first defined at 3:",
    ]

    @Test func everyValidFileParses() throws {
        guard let files = Corpus.files("plist/valid") else { return }
        #expect(files.count > 40)
        for url in files {
            let bytes = try Corpus.bytes(url)
            if let expected = Self.strictlyRejected[url.lastPathComponent] {
                #expect(throws: PlistError.self, "\(url.lastPathComponent) should be rejected") {
                    try PropertyListCoding.read(bytes)
                }
                do { _ = try PropertyListCoding.read(bytes) } catch {
                    #expect(error.message.contains(expected), "\(error)")
                }
                continue
            }
            #expect(throws: Never.self, "\(url.lastPathComponent)") { try PropertyListCoding.read(bytes) }
        }
    }

    @Test func everyInvalidFileIsRejectedWithAPosition() throws {
        guard let files = Corpus.files("plist/invalid") else { return }
        // libplist fuzzer inputs that are well-formed after all (plistlib accepts them too,
        // or they are valid JSON/OpenStep): they must parse or fail cleanly, nothing more.
        var rejected = 0
        for url in files {
            let bytes = try Corpus.bytes(url)
            do {
                _ = try PropertyListCoding.read(bytes)
                #expect(url.lastPathComponent.hasPrefix("libplist-"), "\(url.lastPathComponent) should be rejected")
            } catch {
                rejected += 1
                #expect(error.position != nil, "\(url.lastPathComponent): \(error) has no position")
            }
        }
        #expect(rejected >= files.count - 12)
    }

    @Test func cpythonInvalidBinaryVectorsAllRejected() throws {
        guard let files = Corpus.files("plist/invalid") else { return }
        let vectors = files.filter { $0.lastPathComponent.hasPrefix("cpython-") }
        #expect(vectors.count >= 40)
        for url in vectors {
            #expect(throws: PlistError.self, "\(url.lastPathComponent)") {
                try PropertyListCoding.read(try Corpus.bytes(url))
            }
        }
    }

    /// XML → binary → XML gives an equal value for every XML or binary file in the corpus.
    @Test func xmlBinaryRoundTrip() throws {
        guard let files = Corpus.files("plist/valid") else { return }
        for url in files {
            guard let document = try? PropertyListCoding.read(try Corpus.bytes(url)),
                  document.format == .xml || document.format == .binary else { continue }
            let binary = try PropertyListCoding.write(document.value, as: .binary)
            let viaBinary = try PropertyListCoding.read(binary).value
            #expect(viaBinary == document.value, "\(url.lastPathComponent) binary")
            let xml: [UInt8]
            do {
                xml = try PropertyListCoding.write(viaBinary, as: .xml)
            } catch {
                // The octal-escape fixtures hold U+0000...U+001F, which XML 1.0 cannot carry.
                #expect(error.message.contains("control character"), "\(url.lastPathComponent): \(error)")
                continue
            }
            let viaXML = try PropertyListCoding.read(xml).value
            #expect(viaXML == document.value, "\(url.lastPathComponent) xml")
        }
    }

    /// Twins in the corpus decode to the same value.
    @Test(arguments: [
        ("cpython-testdata-xml.plist", "cpython-testdata-binary.bplist"),
        ("libplist-order.plist", "libplist-order.bplist"),
        ("libplist-signed.plist", "libplist-signed.bplist"),
        ("libplist-unsigned.plist", "libplist-unsigned.bplist"),
        ("libplist-signedunsigned.plist", "libplist-signedunsigned.bplist"),
        ("swiftfoundation-Generic_XML_Properties.plist", "swiftfoundation-Generic_XML_Properties_Binary.plist"),
        ("libplist-offxml.plist", "libplist-off1byte.bplist"),
        ("libplist-offxml.plist", "libplist-off3bytes.bplist"),
        ("libplist-offxml.plist", "libplist-off8bytes.bplist"),
        ("libplist-offxml.plist", "libplist-dictref5bytes.bplist"),
        ("libplist-offxml.plist", "libplist-dictref8bytes.bplist"),
    ])
    func twinsAgree(xml: String, binary: String) throws {
        guard let files = Corpus.files("plist/valid") else { return }
        func load(_ name: String) throws -> PlistValue {
            let url = try #require(files.first { $0.lastPathComponent == name })
            return try PropertyListCoding.read(try Corpus.bytes(url)).value
        }
        #expect(try load(xml) == load(binary))
    }

    @Test func bigAndNegativeIntegersAreExact() throws {
        guard let files = Corpus.files("plist/valid") else { return }
        let url = try #require(files.first { $0.lastPathComponent == "libplist-signedunsigned.plist" })
        guard case .array(let items) = try PropertyListCoding.read(try Corpus.bytes(url)).value else {
            Issue.record("not an array"); return
        }
        let texts = items.compactMap { if case .integer(let i) = $0 { i.description } else { nil } }
        #expect(texts.contains("18446744073709551615"))
        #expect(texts.contains("-9223372036854775808"))
        #expect(texts.contains("9223372036854775808"))
    }

    @Test func keyedArchiveHasUIDs() throws {
        guard let files = Corpus.files("plist/valid") else { return }
        let url = try #require(files.first { $0.lastPathComponent == "cpython-testdata-keyed-archive.bplist" })
        let value = try PropertyListCoding.read(try Corpus.bytes(url)).value
        #expect(try value.value(at: KeyPath.parse("$top.root")) == .uid(1))
    }
}
