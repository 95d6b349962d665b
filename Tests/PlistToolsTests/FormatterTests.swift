import Testing
@testable import PlistTools
import PropertyList
import PropertyListTestSupport

/// `PlistFormatter`: canonical bytes per format, `--sort-keys`, XML indentation, idempotence.
@Suite struct FormatterTests {
    /// Hand-written XML: no DOCTYPE, comments, CDATA, spaces and odd line breaks, data split
    /// over lines, an empty container written long-hand.
    static let messyXML = """
        <?xml version="1.0"?>
        <plist version="1.0"><dict>
          <key>Name</key>   <string>demo &amp; co</string>
        <key>Count</key><integer>  3 </integer>
        <key>Items</key>
              <array><true/><false></false>
          <dict></dict>
        <data>
          AAECAw
          QF
        </data><string><![CDATA[<raw>]]></string>
                </array>
        </dict></plist>
        """

    static let appleLayout = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>Name</key>
        \t<string>demo &amp; co</string>
        \t<key>Count</key>
        \t<integer>3</integer>
        \t<key>Items</key>
        \t<array>
        \t\t<true/>
        \t\t<false/>
        \t\t<dict/>
        \t\t<data>
        \t\tAAECAwQF
        \t\t</data>
        \t\t<string>&lt;raw&gt;</string>
        \t</array>
        </dict>
        </plist>

        """

    @Test func messyXMLBecomesAppleLayout() throws {
        let output = try PlistFormatter().format(Array(Self.messyXML.utf8))
        #expect(output.format == .xml)
        #expect(output.isChanged)
        #expect(String(decoding: output.bytes, as: UTF8.self) == Self.appleLayout)
    }

    @Test func canonicalXMLIsUnchanged() throws {
        let output = try PlistFormatter().format(Array(Self.appleLayout.utf8))
        #expect(!output.isChanged)
        #expect(output.bytes == Array(Self.appleLayout.utf8))
    }

    @Test func sortKeysSortsEveryDictionary() throws {
        let value = PlistValue.dictionary([
            "b": .array([.dictionary(["z": .int(1), "a": .int(2)])]),
            "a": .dictionary(["y": .string("y"), "x": .string("x")]),
        ])
        let json = try PropertyListCoding.write(value, as: .json)
        let output = try PlistFormatter(sortsKeys: true).format(json)
        #expect(output.format == .json)
        #expect(String(decoding: output.bytes, as: UTF8.self) == """
            {
              "a": {
                "x": "x",
                "y": "y"
              },
              "b": [
                {
                  "a": 2,
                  "z": 1
                }
              ]
            }

            """)
        // Without --sort-keys the order is the file's.
        #expect(try PlistFormatter().format(json).isChanged == false)
    }

    @Test func indentWithSpaces() throws {
        let value = PlistValue.dictionary(["k": .array([.data(Array(0..<60))])])
        let xml = try PropertyListCoding.write(value, as: .xml)
        let output = try PlistFormatter(xmlIndent: .spaces(2)).format(xml)
        #expect(output.isChanged)
        let text = String(decoding: output.bytes, as: UTF8.self)
        #expect(text.hasSuffix("""
            <dict>
              <key>k</key>
              <array>
                <data>
                AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1
                Njc4OTo7
                </data>
              </array>
            </dict>
            </plist>

            """))
        // Data lines fill 76 columns counting the indentation (4 spaces + 72), as tabs count 8.
        #expect(try PropertyListCoding.read(output.bytes).value == value)
        // Tabs back again give the default writer's bytes.
        #expect(try PlistFormatter().format(output.bytes).bytes == xml)
    }

    @Test func defaultIndentIsTheWriterDefault() throws {
        let value = PlistValue.dictionary(["a": .array([.data(Array(repeating: 7, count: 100)), .dictionary(["b": .bool(true)])])])
        #expect(try PropertyListCoding.write(value, as: .xml, xmlIndent: .tabs) == (try PropertyListCoding.write(value, as: .xml)))
        // Non-XML formats ignore the indentation.
        for format in [PlistFormat.binary, .openStep] {
            #expect(try PropertyListCoding.write(value, as: format, xmlIndent: .spaces(3)) == (try PropertyListCoding.write(value, as: format)))
        }
    }

    @Test func parseErrorsKeepTheirPosition() throws {
        let error = #expect(throws: PlistError.self) {
            try PlistFormatter().format(Array("<plist><dict><key>a</key></dict></plist>".utf8))
        }
        #expect(error?.position != nil)
    }

    static let formatters: [(String, PlistFormatter)] = [
        ("default", PlistFormatter()),
        ("sorted", PlistFormatter(sortsKeys: true)),
        ("spaces", PlistFormatter(xmlIndent: .spaces(3))),
    ]

    /// Formatting formatted output changes nothing, for every corpus file devkit can read.
    @Test(arguments: formatters.map(\.0))
    func idempotentOverCorpus(variant: String) throws {
        guard let files = Corpus.files("plist/valid") else { return }
        let formatter = try #require(Self.formatters.first { $0.0 == variant }?.1)
        var formatted = 0
        for url in files {
            let bytes = try Corpus.bytes(url)
            guard let first = try? formatter.format(bytes) else { continue }
            formatted += 1
            let second = try formatter.format(first.bytes)
            #expect(!second.isChanged, "\(url.lastPathComponent): formatting twice changed the bytes")
            #expect(second.format == first.format, "\(url.lastPathComponent)")
        }
        #expect(formatted >= files.count / 2, "only \(formatted) of \(files.count) corpus files formatted")
    }
}

/// `plist fmt` and comments: kept in `.strings` files, never dropped silently elsewhere.
@Suite struct FormatterCommentTests {
    static let strings = Array("""
        /* Generated by hand */

        /* Title of the main window */
        "window.title"="My App" ;
        // Buttons
        button.ok = "OK"; // short



        "button.cancel" = "Cancel"; /* multi
        line */
        "a" = "first";
        // end note

        """.utf8)

    @Test func stringsFilesKeepTheirComments() throws {
        let output = try PlistFormatter().format(Self.strings)
        #expect(String(decoding: output.bytes, as: UTF8.self) == """
            /* Generated by hand */

            /* Title of the main window */
            "window.title" = "My App";
            // Buttons
            "button.ok" = "OK"; // short

            "button.cancel" = "Cancel";
            /* multi
            line */
            "a" = "first";
            // end note

            """)
        #expect(try PlistFormatter().format(output.bytes).isChanged == false)
    }

    @Test func sortingMovesCommentsWithTheirEntriesAndKeepsTheHeader() throws {
        let output = try PlistFormatter(sortsKeys: true).format(Self.strings)
        #expect(String(decoding: output.bytes, as: UTF8.self) == """
            /* Generated by hand */

            /* multi
            line */
            "a" = "first";

            "button.cancel" = "Cancel";
            // Buttons
            "button.ok" = "OK"; // short
            /* Title of the main window */
            "window.title" = "My App";
            // end note

            """)
        // Same values as the input, in sorted order.
        #expect(try PropertyListCoding.read(output.bytes).value == PropertyListCoding.read(Self.strings).value.sortingKeys())
        #expect(try PlistFormatter(sortsKeys: true).format(output.bytes).isChanged == false)
    }

    @Test(arguments: [
        "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><!-- note --><key>a</key><string>b</string></dict></plist>",
        "{\n  // note\n  a = b;\n}\n",
    ])
    func otherFilesWithCommentsAreLeftAloneUnlessAsked(text: String) throws {
        let bytes = Array(text.utf8)
        let kept = try PlistFormatter().format(bytes)
        #expect(kept.isChanged == false)
        #expect(kept.bytes == bytes)
        #expect(kept.warnings.contains { $0.message.contains("--drop-comments") })
        let dropped = try PlistFormatter(dropsComments: true).format(bytes)
        #expect(dropped.isChanged)
        #expect(!String(decoding: dropped.bytes, as: UTF8.self).contains("note"))
        #expect(try PropertyListCoding.read(dropped.bytes).value == PropertyListCoding.read(bytes).value)
    }
}
