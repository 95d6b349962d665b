import Testing
@testable import PropertyList
import PropertyListTestSupport

/// The writers produce Apple's bytes exactly.
@Suite struct GoldenTests {
    /// cpython-testdata-xml.plist was written by Cocoa; CPython checks its own output against it.
    @Test func xmlMatchesApple() throws {
        guard let files = Corpus.files("plist/valid") else { return }
        for name in ["cpython-testdata-xml.plist", "swiftfoundation-Generic_XML_Properties.plist", "libplist-signedunsigned.plist"] {
            let url = try #require(files.first { $0.lastPathComponent == name })
            let original = try Corpus.bytes(url)
            let written = try PropertyListCoding.write(try PropertyListCoding.read(original).value, as: .xml)
            #expect(written == original, "\(name)")
        }
    }

    /// cpython-testdata-binary.bplist is Apple's binary twin of the XML file.
    @Test func binaryMatchesApple() throws {
        guard let files = Corpus.files("plist/valid") else { return }
        for (source, twin) in [("cpython-testdata-xml.plist", "cpython-testdata-binary.bplist"),
                               ("libplist-unsigned.bplist", "libplist-unsigned.bplist"),
                               ("libplist-uid.bplist", "libplist-uid.bplist")] {
            let sourceURL = try #require(files.first { $0.lastPathComponent == source })
            let twinURL = try #require(files.first { $0.lastPathComponent == twin })
            let written = try PropertyListCoding.write(try PropertyListCoding.read(try Corpus.bytes(sourceURL)).value, as: .binary)
            #expect(written == (try Corpus.bytes(twinURL)), "\(source) → \(twin)")
        }
    }

    @Test func smallDocumentLayout() throws {
        let value = PlistValue.dictionary(["a": .array([.bool(true), .dictionary([:]), .data([1, 2])]), "b": .string("x & y")])
        let text = String(decoding: try PropertyListCoding.write(value, as: .xml), as: UTF8.self)
        #expect(text == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>a</key>
            \t<array>
            \t\t<true/>
            \t\t<dict/>
            \t\t<data>
            \t\tAQI=
            \t\t</data>
            \t</array>
            \t<key>b</key>
            \t<string>x &amp; y</string>
            </dict>
            </plist>

            """)
    }

    /// Every escape the XML writer makes, at the start, middle and end of runs it copies whole.
    @Test func stringEscapesExactly() throws {
        let cases: [(String, String)] = [
            ("&", "&amp;"), ("<a>", "&lt;a&gt;"), ("x\r\ny", "x&#13;\ny"), ("\ttab", "\ttab"),
            ("Grüße & 東京 < 🚀 >", "Grüße &amp; 東京 &lt; 🚀 &gt;"), ("plain text, no escapes", "plain text, no escapes"),
            ("&&<<>>", "&amp;&amp;&lt;&lt;&gt;&gt;"), ("end&", "end&amp;"),
        ]
        for (string, escaped) in cases {
            let text = String(decoding: try PropertyListCoding.write(.string(string), as: .xml), as: UTF8.self)
            #expect(text.contains("<string>\(escaped)</string>\n"), "\(string.debugDescription) → \(text)")
            #expect(try PropertyListCoding.read(Array(text.utf8)).value == .string(string))
        }
        #expect(throws: PlistError.self) { try PropertyListCoding.write(.string("bell\u{7}"), as: .xml) }
    }
}
