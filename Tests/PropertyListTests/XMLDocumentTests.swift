import Testing
@testable import PropertyList

/// Lossless XML editing: only the edited node's bytes change.
@Suite struct XMLDocumentTests {
    static let fixture = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <!-- top comment -->
        <dict>
          <!-- the name -->
          <key>Name</key>
          <string>Old &amp; name</string>
          <key>Count</key>
          <integer>3</integer>   <!-- trailing comment -->
          <key>Sub</key>
          <dict>
            <key>flag</key>
            <true/>
          </dict>
          <key>Items</key>
          <array>
            <string>a</string>
            <string>b</string>
          </array>
        </dict>
        </plist>

        """.utf8)

    static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func isUTF16(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && (bytes[0] == 0xFE || bytes[0] == 0xFF || bytes[0] == 0 || bytes[1] == 0)
    }

    @Test func corpusAddThenDeleteGivesOriginalBytes() throws {
        guard let files = Corpus.files("plist/valid") else { return }
        var checked = 0
        for url in files {
            let bytes = try Corpus.bytes(url)
            guard PlistFormat.detect(bytes) == .xml, !Self.isUTF16(bytes),
                  case .dictionary(let dict)? = try? PropertyListCoding.read(bytes).value, !dict.isEmpty else { continue }
            let path = KeyPath(["devkit-test-added"])
            let added = try PlistEditor.set(bytes, at: path, text: "added value", type: nil)
            let value = try PropertyListCoding.read(added).value
            #expect(try value.value(at: path) == .string("added value"), "\(url.lastPathComponent)")
            let restored = try PlistEditor.delete(added, at: path)
            #expect(restored == bytes, "\(url.lastPathComponent)")
            checked += 1
        }
        #expect(checked > 0)
    }

    @Test func corpusSetStringChangesOneLine() throws {
        guard let files = Corpus.files("plist/valid") else { return }
        var checked = 0
        for url in files {
            let bytes = try Corpus.bytes(url)
            guard PlistFormat.detect(bytes) == .xml, !Self.isUTF16(bytes),
                  case .dictionary(let dict)? = try? PropertyListCoding.read(bytes).value,
                  let (key, _) = dict.first(where: { entry in
                      if case .string(let s) = entry.value { return !s.contains("\n") && !s.contains("\r") }
                      return false
                  }) else { continue }
            let edited = try PlistEditor.set(bytes, at: KeyPath([key]), text: "devkit changed", type: nil)
            let before = Self.lines(bytes), after = Self.lines(edited)
            #expect(before.count == after.count, "\(url.lastPathComponent)")
            let changed = zip(before, after).filter { $0 != $1 }.count
            #expect(changed == 1, "\(url.lastPathComponent)")
            #expect(try PropertyListCoding.read(edited).value.value(at: KeyPath([key])) == .string("devkit changed"))
            checked += 1
        }
        #expect(checked > 0)
    }

    @Test func commentsSurviveEdits() throws {
        var bytes = try PlistEditor.set(Self.fixture, at: KeyPath(["Name"]), text: "New <name>", type: nil)
        bytes = try PlistEditor.set(bytes, at: KeyPath(["Count"]), text: "42", type: nil)
        bytes = try PlistEditor.set(bytes, at: KeyPath(["Sub", "added"]), text: "2024-01-31T12:00:00Z", type: .date)
        bytes = try PlistEditor.delete(bytes, at: KeyPath(["Items", "0"]))
        let text = String(decoding: bytes, as: UTF8.self)
        for comment in ["<!-- top comment -->", "<!-- the name -->", "<integer>42</integer>   <!-- trailing comment -->"] {
            #expect(text.contains(comment))
        }
        #expect(text.contains("  <string>New &lt;name&gt;</string>\n"))
        #expect(text.contains("    <true/>\n    <key>added</key>\n    <date>2024-01-31T12:00:00Z</date>\n  </dict>"))
        #expect(text.contains("  <array>\n    <string>b</string>\n  </array>"))
        let value = try PropertyListCoding.read(bytes).value
        #expect(try value.value(at: KeyPath(["Items"])) == .array([.string("b")]))
        #expect(try value.value(at: KeyPath(["Count"])) == .int(42))
    }

    @Test func deleteRemovesTheWholeLine() throws {
        let bytes = try PlistEditor.delete(Self.fixture, at: KeyPath(["Name"]))
        let before = Self.lines(Self.fixture), after = Self.lines(bytes)
        #expect(after == before.filter { !$0.contains("<key>Name") && !$0.contains("Old &amp;") })
    }

    @Test func typeChangeNeedsTypeOption() throws {
        #expect(throws: PlistError.self) { try PlistEditor.set(Self.fixture, at: KeyPath(["Count"]), text: "many", type: nil) }
        do { _ = try PlistEditor.set(Self.fixture, at: KeyPath(["Count"]), text: "many", type: nil) } catch {
            #expect(error.message.contains("\"Count\""))
            #expect(error.message.contains("--type"))
        }
        let bytes = try PlistEditor.set(Self.fixture, at: KeyPath(["Count"]), text: "many", type: .string)
        #expect(try PropertyListCoding.read(bytes).value.value(at: KeyPath(["Count"])) == .string("many"))
    }

    @Test func unsupportedEditsAreErrors() throws {
        let empty = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict/>\n</plist>\n".utf8)
        for (bytes, path) in [(Self.fixture, ["Sub"]), (Self.fixture, ["Missing", "x"]), (Self.fixture, ["Items", "5"]), (empty, ["k"])] {
            do {
                _ = try PlistEditor.set(bytes, at: KeyPath(path), text: "1", type: nil)
                Issue.record("set \(path) should fail")
            } catch {
                #expect(error.message.contains("\"\(KeyPath(path))\""), "\(error)")
            }
        }
        let json = Array("{\"a\": 1}".utf8)
        #expect(throws: PlistError.self) { try PlistEditor.delete(json, at: KeyPath(["a"])) }
    }

    @Test func binaryEditsByValue() throws {
        let original: PlistValue = .dictionary(["a": .int(1), "b": .array([.string("x"), .string("y")])])
        let bytes = BinaryPlistWriter.write(original)
        let set = try PlistEditor.set(bytes, at: KeyPath(["a"]), text: "5", type: nil)
        #expect(try PropertyListCoding.read(set).value == .dictionary(["a": .int(5), "b": .array([.string("x"), .string("y")])]))
        let added = try PlistEditor.set(set, at: KeyPath(["c"]), text: "true", type: .bool)
        #expect(try PropertyListCoding.read(added).value.value(at: KeyPath(["c"])) == .bool(true))
        let deleted = try PlistEditor.delete(added, at: KeyPath(["b", "0"]))
        #expect(try PropertyListCoding.read(deleted).value == .dictionary(["a": .int(5), "b": .array([.string("y")]), "c": .bool(true)]))
        #expect(try PlistEditor.delete(deleted, at: KeyPath(["b", "0"])) == PlistEditor.delete(deleted, at: KeyPath(["b", "0"])))
    }
}
