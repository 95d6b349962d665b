import Foundation
import OrderedCollections
import Testing
@testable import PropertyList

@Suite("OpenStep / .strings")
struct OpenStepTests {
    // MARK: Helpers

    /// `/work/shared/corpus` when the repository is `/work/main`: `../shared/corpus` from the root.
    static let corpus: URL? = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = root.appendingPathComponent("../shared/corpus").standardized
        return FileManager.default.fileExists(atPath: dir.path) ? dir : nil
    }()

    static func corpusBytes(_ name: String) throws -> [UInt8]? {
        guard let corpus else { return nil }
        return Array(try Data(contentsOf: corpus.appendingPathComponent("plist/valid/\(name)")))
    }

    func parse(_ bytes: [UInt8]) throws(PlistError) -> PlistValue {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(PlistError) in try OpenStepReader.read(raw) } }
        return try result.get()
    }

    func parse(_ text: String) throws(PlistError) -> PlistValue {
        try parse(Array(text.utf8))
    }

    func write(_ value: PlistValue) throws(PlistError) -> String {
        String(decoding: try OpenStepWriter.write(value), as: UTF8.self)
    }

    func dict(_ pairs: KeyValuePairs<String, PlistValue>) -> PlistValue {
        var d: OrderedDictionary<String, PlistValue> = [:]
        for (k, v) in pairs { d[k] = v }
        return .dictionary(d)
    }

    /// `text` as UTF-16 with a byte-order mark.
    func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return bytes
    }

    func strings(_ items: String...) -> PlistValue { .array(items.map { .string($0) }) }

    func expectError(
        _ bytes: [UInt8], line: Int, column: Int, _ fragment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let value = try parse(bytes)
            Issue.record("expected an error, read \(value)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.position == .text(line: line, column: column), "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
    }

    func expectError(
        _ text: String, line: Int, column: Int, _ fragment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectError(Array(text.utf8), line: line, column: column, fragment, sourceLocation: sourceLocation)
    }

    // MARK: Corpus

    @Test func corpusOStepFiles() throws {
        guard let o1 = try Self.corpusBytes("libplist-o1.ostep"),
              let o2 = try Self.corpusBytes("libplist-o2.ostep"),
              let o3 = try Self.corpusBytes("libplist-o3.ostep")
        else {
            print("skipped: ../shared/corpus not present")
            return
        }
        guard case .dictionary(let d1) = try parse(o1) else { Issue.record("o1 is not a dictionary"); return }
        #expect(Array(d1.keys) == ["test", "foo", "more"])
        #expect(d1["test"] == strings("1", "1"))
        guard case .array(let foo)? = d1["foo"] else { Issue.record("foo"); return }
        #expect(foo.count == 5)
        #expect(foo[0] == strings("-1337"))
        guard case .dictionary(let more)? = d1["more"], case .array(let b)? = more["b"] else { Issue.record("more.b"); return }
        #expect(b.first == dict(["c": .string("0.25")]))

        guard case .dictionary(let d2) = try parse(o2) else { Issue.record("o2 is not a dictionary"); return }
        #expect(d2.count == 5)
        #expect(d2["Some Int"] == .string("32434543632"))
        #expect(d2["Keys & \"entities\""] == .string("hello world & others <nodes> are fun!?'"))
        #expect(d2["Some String with Unicode entity"] == .string("Yeah check this: \u{1234} !!!"))
        guard case .array(let utf8)? = d2["Some UTF8 strings"] else { Issue.record("utf8 strings"); return }
        #expect(utf8.count == 9)
        #expect(utf8.first == .string("àéèçù"))
        #expect(utf8.contains(.string("język polski")))

        guard case .array(let a3) = try parse(o3) else { Issue.record("o3 is not an array"); return }
        #expect(a3 == [
            dict(["AFirstKey": .string("A First Value"), "ASecondKey": .string("A Second Value")]),
            dict(["CFirstKey": .string("C First Value"), "CSecondKey": .string("C Second Corrected Value")]),
        ])
    }

    @Test func corpusStringsFile() throws {
        guard let bytes = try Self.corpusBytes("libplist-test.strings") else {
            print("skipped: ../shared/corpus not present")
            return
        }
        guard case .dictionary(let d) = try parse(bytes) else { Issue.record("not a dictionary"); return }
        #expect(d.count == 12)
        #expect(Array(d.keys.prefix(4)) == ["STRINGS_ENTRY", "FOO", "BAR", "ENTRY0"])
        #expect(d["STRINGS_ENTRY"] == .string("Whatever"))
        #expect(d["BAR"] == .string("Foo"))
        #expect(d["ENTRY7"] == .string("język polski"))
        // Detection routes it here too.
        #expect(try PropertyListCoding.read(bytes).format == .openStep)
    }

    /// Pins octal escapes: `\0`…`\775`, bytes above 0x7F mapped through NeXTSTEP encoding,
    /// three-digit values above `\377` wrapping like CF's `uint8_t`.
    @Test func corpusOctalEscapes() throws {
        guard let source = try Self.corpusBytes("swiftfoundation-test_oldStylePlist_getSlashedChars_octal.plist"),
              let expected = try Self.corpusBytes("swiftfoundation-test_oldStylePlist_getSlashedChars_octal_expected.plist")
        else {
            print("skipped: ../shared/corpus not present")
            return
        }
        // The "expected" twin is a binary plist despite its name: let detection pick the reader.
        let want = try PropertyListCoding.read(expected).value
        let got = try parse(source)
        guard case .array(let w) = want, case .array(let g) = got else {
            Issue.record("not arrays: \(want.typeName) \(got.typeName)")
            return
        }
        #expect(g.count == w.count)
        for (index, (a, b)) in zip(g, w).enumerated() where a != b {
            Issue.record("element \(index): read \(a), expected \(b)")
        }
    }

    // MARK: Reading

    @Test func scalarsAreStrings() throws {
        #expect(try parse("12") == .string("12"))
        #expect(try parse("(12, -1.5, YES, a/b:c.d_$+e)") == strings("12", "-1.5", "YES", "a/b:c.d_$+e"))
        #expect(try parse("  \"quoted\"  ") == .string("quoted"))
        #expect(try parse("'single \"q\"'") == .string("single \"q\""))
    }

    @Test func containers() throws {
        #expect(try parse("()") == .array([]))
        #expect(try parse("{}") == .dictionary([:]))
        #expect(try parse("(a, b, c,)") == strings("a", "b", "c"))
        #expect(try parse("{ a = (1, {x = y;}); b = {}; }")
            == dict(["a": .array([.string("1"), dict(["x": .string("y")])]), "b": .dictionary([:])]))
        #expect(try parse("{a=b;c=d;}") == dict(["a": .string("b"), "c": .string("d")]))
    }

    @Test func escapes() throws {
        #expect(try parse(#""\\ \" \' \n \t \r \a \b \f \v""#) == .string("\\ \" ' \n \t \r \u{7} \u{8} \u{C} \u{B}"))
        #expect(try parse(#""\U41\U00e9\U20AC!""#) == .string("Aé€!"))
        #expect(try parse(#""\UD83D\UDE00""#) == .string("😀"))
        #expect(try parse(#""\101\60\0x""#) == .string("A0\u{0}x"))
        #expect(try parse(#""\341\377""#) == .string("Æ\u{FFFD}"))
        #expect(try parse(#""\q\é""#) == .string("qé"))
        #expect(try parse("'it\\'s'") == .string("it's"))
        #expect(try parse("\"multi\nline\"") == .string("multi\nline"))
    }

    @Test func data() throws {
        #expect(try parse("<0fbd7777 1C2735AE>") == .data([0x0F, 0xBD, 0x77, 0x77, 0x1C, 0x27, 0x35, 0xAE]))
        #expect(try parse("<>") == .data([]))
        #expect(try parse("< 0 f\n b d >") == .data([0x0F, 0xBD]))
    }

    @Test func typedExtensions() throws {
        #expect(try parse("<*I123>") == .int(123))
        #expect(try parse("<*I-9223372036854775808>") == .int(.min))
        #expect(try parse("<*I18446744073709551615>") == .integer(PlistInteger(UInt64.max)))
        #expect(try parse("<*R1.5>") == .double(1.5))
        #expect(try parse("<*R-inf>") == .double(-.infinity))
        #expect(try parse("(<*BY>, <*BN>)") == .array([.bool(true), .bool(false)]))
        let date = try #require(PlistDate(year: 2024, month: 1, day: 2, hour: 3, minute: 4, second: 5))
        #expect(try parse("<*D2024-01-02 03:04:05 +0000>") == .date(date))
        #expect(try parse("<*D2024-01-02 05:04:05 +0200>") == .date(date))
        expectError("(<*Ix>)", line: 1, column: 2, "invalid integer")
        expectError("<*BX>", line: 1, column: 1, "invalid boolean")
        expectError("<*D2024-13-02 03:04:05 +0000>", line: 1, column: 1, "invalid date")
        expectError("<*Q1>", line: 1, column: 1, "unknown typed value")
    }

    @Test func commentsAndWhitespace() throws {
        let text = """
            // leading comment
            { /* before key */ a /* after key */ = /* before value */ b /* after */ ; // tail
              c = "/* not a comment */"; d = a//b;
            }\u{2028}
            """
        #expect(try parse(text) == dict(["a": .string("b"), "c": .string("/* not a comment */"), "d": .string("a//b")]))
    }

    @Test func stringsFiles() throws {
        #expect(try parse("\"greeting\" = \"Hello\";\n/* note */ farewell = 'Bye';\n")
            == dict(["greeting": .string("Hello"), "farewell": .string("Bye")]))
        // CF's shortcut: `key;` means `key = key;`.
        #expect(try parse("\"OK\";\nCancel = Abbrechen;") == dict(["OK": .string("OK"), "Cancel": .string("Abbrechen")]))
        #expect(try parse("  \n// only a comment\n/* and another */ ") == .dictionary([:]))
        #expect(try parse("") == .dictionary([:]))
        expectError("a = b;\nc = d", line: 2, column: 6, "expected ';'")
        expectError("a = b;\n}", line: 2, column: 1, "expected a key")
    }

    @Test func byteOrderMarks() throws {
        let text = "{ k = \"\u{e9}\u{1F600}\"; }"
        let expected = dict(["k": .string("\u{e9}\u{1F600}")])
        #expect(try parse([0xEF, 0xBB, 0xBF] + Array(text.utf8)) == expected)
        #expect(try parse(utf16(text, bigEndian: true)) == expected)
        #expect(try parse(utf16(text, bigEndian: false)) == expected)
        // Positions in UTF-16 input refer to the decoded text.
        expectError(utf16("(a,\n b c)", bigEndian: false), line: 2, column: 4, "expected ','")
        do {
            _ = try parse([0xFF, 0xFE, 0x41, 0x00, 0x00, 0xDC])
            Issue.record("lone UTF-16 surrogate accepted")
        } catch {
            #expect(error.position == .byteOffset(4))
        }
    }

    // MARK: Errors

    @Test func errorPositions() {
        expectError("{\n  a = \"abc;\n}", line: 2, column: 7, "unterminated string")
        expectError("(a, /* x\n y", line: 1, column: 5, "unterminated comment")
        expectError("<0fbz>", line: 1, column: 5, "invalid character 'z' in data")
        expectError("(\n  <0fb>)", line: 2, column: 6, "odd number of hex digits")
        expectError("<0fbd", line: 1, column: 1, "unterminated data")
        expectError("{\n  a \"b\";\n}", line: 2, column: 5, "expected '=' after key \"a\"")
        expectError("{\n  a = b\n}", line: 3, column: 1, "expected ';' after the value of key \"a\"")
        expectError("{\n  k = 1;\n  k = 2;\n}", line: 3, column: 3, "duplicate key \"k\" (first defined at 2:3)")
        expectError("(a) b", line: 1, column: 5, "after the root value")
        expectError("{a = b;} {", line: 1, column: 10, "after the root value")
        expectError([UInt8]("(\n\"ab".utf8) + [0xFF] + [UInt8]("\")".utf8), line: 2, column: 4, "invalid UTF-8")
        expectError([UInt8]("(a, \"".utf8) + [0xC0, 0xAF] + [UInt8]("\")".utf8), line: 1, column: 6, "invalid UTF-8")
        expectError(#"("x\UD800")"#, line: 1, column: 4, "lone UTF-16 high surrogate")
        expectError(#"("\UD800\U0041")"#, line: 1, column: 3, "lone UTF-16 high surrogate")
        expectError(#"("\UDC00")"#, line: 1, column: 3, "lone UTF-16 low surrogate")
        expectError(#"("\Uxyz")"#, line: 1, column: 3, "1 to 4 hex digits")
        expectError("(a b)", line: 1, column: 4, "expected ',' or ')'")
        expectError("(a,\n", line: 2, column: 1, "unexpected end of file")
        expectError("{ a = b;", line: 1, column: 9, "unexpected end of file in dictionary opened at 1:1")
        expectError("(a, =)", line: 1, column: 5, "unexpected '='")
        expectError("{ (a) = b; }", line: 1, column: 3, "expected a key")
        expectError("\r\n\r\n  ]", line: 3, column: 3, "unexpected ']'")
    }

    @Test func deepNestingFailsCleanly() {
        let start = ContinuousClock.now
        expectError([UInt8](repeating: UInt8(ascii: "("), count: 100_000), line: 1, column: 513, "nested deeper than 512")
        expectError(Array(String(repeating: "{a=", count: 100_000).utf8), line: 1, column: 3 * 512 + 1, "nested deeper than 512")
        #expect(ContinuousClock.now - start < .seconds(5))
        // 512 levels are fine.
        let ok = String(repeating: "(", count: 512) + String(repeating: ")", count: 512)
        #expect(throws: Never.self) { try parse(ok) }
    }

    // MARK: Writing

    @Test func writerLayout() throws {
        let value = dict([
            "name": .string("devkit"),
            "empty": .string(""),
            "list": .array([.string("a"), .string("b c")]),
            "nested": dict(["x": .array([]), "y": .dictionary([:])]),
            "bytes": .data([0x0F, 0xBD, 0x77, 0x77, 0x1C, 0x27, 0x35, 0xAE, 0x01]),
            "version": .string("12"),
        ])
        #expect(try write(value) == """
            {
                name = devkit;
                empty = "";
                list = (
                    a,
                    "b c"
                );
                nested = {
                    x = ();
                    y = {};
                };
                bytes = <0fbd7777 1c2735ae 01>;
                version = "12";
            }

            """)
        #expect(try write(.string("plain")) == "plain\n")
        #expect(try write(.string("a\"b\\c\nd\te\r\u{1}\u{7F}é")) == #""a\"b\\c\nd\te\r\U0001\U007fé""# + "\n")
        #expect(try write(.array([.int(-42), .double(1.5), .bool(true), .bool(false)])) == "(\n    <*I-42>,\n    <*R1.5>,\n    <*BY>,\n    <*BN>\n)\n")
        let date = try #require(PlistDate(year: 2024, month: 1, day: 2, hour: 3, minute: 4, second: 5))
        #expect(try write(.date(date)) == "<*D2024-01-02 03:04:05 +0000>\n")
    }

    @Test func writerQuotesOnlyWhenNeeded() {
        for s in ["abc", "a/b:c.d-e_f$", "com.example.app", "v1.2.3"] { #expect(OpenStepWriter.canBeUnquoted(s), "\(s)") }
        for s in ["", "a b", "a+b", "//x", "12", "-1.5", "1e5", "0x1F", "inf", "nan", "é", "a=b", "a;"] {
            #expect(!OpenStepWriter.canBeUnquoted(s), "\(s)")
        }
    }

    @Test func writerRejectsWhatOpenStepCannotHold() {
        #expect(throws: PlistError.self) { try OpenStepWriter.write(.array([.uid(7)])) }
        do {
            _ = try OpenStepWriter.write(.uid(7))
        } catch {
            #expect(error.message.hasPrefix("OpenStep cannot hold a UID"))
            #expect(error.position == nil)
        }
        #expect(throws: PlistError.self) { try OpenStepWriter.write(.date(PlistDate(secondsSinceReferenceDate: 1e15))) }
    }

    // MARK: Round trips

    @Test(arguments: [
        "", " ", "a b", "\"quoted\"", "'single'", "back\\slash", "line\nbreak", "tab\tcr\r", "\u{0}\u{1}\u{1F}\u{7F}",
        "unicode é ü ñ 日本語", "emoji 😀👍🏽🇩🇪", "12", "-3", "1.5", "1e10", "0x10", "inf", "nan", "YES", "<*I1>", "<0f>",
        "//comment", "/* c */", "a//b", "$var", "a+b", "=;{}()<>,", "\u{2028}\u{2029}", "\\U0041", "\\101",
    ])
    func stringRoundTrip(_ s: String) throws {
        let value = dict([s: .array([.string(s)])])
        #expect(try parse(try OpenStepWriter.write(value)) == value)
        #expect(try parse(try OpenStepWriter.write(.string(s))) == .string(s))
    }

    @Test func valueRoundTrip() throws {
        let date = try #require(PlistDate(year: 1999, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        let old = try #require(PlistDate(year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0))
        let value = dict([
            "strings": strings("", "a", "12", "x y", "😀"),
            "data": .array([.data([]), .data([0]), .data(Array(0...255))]),
            "numbers": .array([
                .int(0), .int(-1), .int(.max), .int(.min), .integer(PlistInteger(UInt64.max)),
                .double(0), .double(-0.0), .double(1.5), .double(1e-300), .double(1e300),
                .double(.infinity), .double(-.infinity), .double(.nan), .double(0.1),
            ]),
            "bools": .array([.bool(true), .bool(false)]),
            "dates": .array([.date(date), .date(old), .date(PlistDate(secondsSinceReferenceDate: 0))]),
            "nested": .array([dict(["a": .array([.array([]), dict([:]), dict(["": .string("")])])])]),
            "": .string("empty key"),
        ])
        let text = try OpenStepWriter.write(value)
        #expect(try parse(text) == value)
        #expect(try OpenStepWriter.write(try parse(text)) == text)
        #expect(text.last == 0x0A)
        // Through the public entry points, with detection.
        let doc = try PropertyListCoding.read(try PropertyListCoding.write(value, as: .openStep))
        #expect(doc.format == .openStep)
        #expect(doc.value == value)
    }

    @Test func deepRoundTrip() throws {
        var value = PlistValue.string("leaf")
        for depth in 0..<511 { value = depth % 2 == 0 ? .array([value]) : dict(["k": value]) }
        #expect(try parse(try OpenStepWriter.write(value)) == value)
    }
}
