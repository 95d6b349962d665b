import Testing
@testable import PropertyList
import PropertyListTestSupport

// MARK: - Helpers

private func readJSON(_ bytes: [UInt8]) throws(PlistError) -> PlistValue {
    let result = bytes.withUnsafeBytes { raw in Result { () throws(PlistError) in try JSONPlistReader.read(raw) } }
    return try result.get()
}

private func readJSON(_ text: String) throws(PlistError) -> PlistValue {
    try readJSON(Array(text.utf8))
}

/// The error reading `text` throws; nil (and a recorded failure) if it parses.
private func readError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> PlistError? {
    readError(Array(text.utf8), sourceLocation: sourceLocation)
}

private func readError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> PlistError? {
    do {
        let value = try readJSON(bytes)
        Issue.record("expected an error, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

private func writeJSON(_ value: PlistValue) throws(PlistError) -> String {
    String(decoding: try JSONPlistWriter.write(value), as: UTF8.self)
}

/// The bytes of `plist/<path>` in the shared corpus; nil (after the skip notice) when the
/// corpus is not checked out.
private func corpusBytes(_ path: String) throws -> [UInt8]? {
    guard Corpus.files("plist/valid") != nil else { return nil }
    return try Corpus.bytes(Corpus.root.appendingPathComponent("plist/" + path))
}

private extension PlistValue {
    subscript(key: String) -> PlistValue? {
        if case .dictionary(let d) = self { return d[key] }
        return nil
    }

    var keys: [String] {
        if case .dictionary(let d) = self { return Array(d.keys) }
        return []
    }
}

// MARK: - Real files

@Suite("JSON corpus")
struct JSONCorpusTests {
    @Test func libplistInt64MinMax() throws {
        guard let bytes = try corpusBytes("valid/libplist-int64_min_max.json") else { return }
        let value = try readJSON(bytes)
        #expect(value.keys == ["INT64_MIN", "INT64_MAX"])
        #expect(value["INT64_MIN"] == .int(Int64.min))
        #expect(value["INT64_MAX"] == .int(Int64.max))
    }

    @Test func libplistJ1() throws {
        guard let bytes = try corpusBytes("valid/libplist-j1.json") else { return }
        let value = try readJSON(bytes)
        #expect(value.keys == ["test", "foo", "more"])
        #expect(value["test"] == .array([.int(1), .int(1)]))
        #expect(value["more"]?["a"] == .string("yo"))
        guard case .array(let b)? = value["more"]?["b"] else {
            Issue.record("more.b is not an array")
            return
        }
        #expect(b.first?["c"] == .double(0.25))
    }

    @Test func libplistJ2() throws {
        guard let bytes = try corpusBytes("valid/libplist-j2.json") else { return }
        let value = try readJSON(bytes)
        #expect(value.keys == [
            "Some ASCII string", "Some UTF8 strings", "Keys & \"entities\"", "Boolean",
            "Another Boolean", "Some Int", "Some String with Unicode entity",
        ])
        #expect(value["Some Int"] == .int(32_434_543_632))
        #expect(value["Boolean"] == .bool(false))
        #expect(value["Another Boolean"] == .bool(true))
        #expect(value["Some String with Unicode entity"] == .string("Yeah check this: \u{1234} !!!"))
        #expect(value["Keys & \"entities\""] == .string("hellow world & others <nodes> are \"fun!?'"))
        guard case .array(let utf8)? = value["Some UTF8 strings"] else {
            Issue.record("Some UTF8 strings is not an array")
            return
        }
        #expect(utf8.count == 9)
        #expect(utf8.first == .string("àéèçù"))
        #expect(utf8.contains(.string("日本語")))
    }

    /// libplist's JSON fuzzer crashers and leaks: each must parse or fail with a position.
    @Test func libplistFuzzCasesNeverCrash() throws {
        guard let files = Corpus.files("plist/invalid") else { return }
        let cases = files.filter { $0.lastPathComponent.hasPrefix("libplist-jplist-") }
        #expect(!cases.isEmpty)
        for url in cases {
            let bytes = try Corpus.bytes(url)
            do {
                _ = try readJSON(bytes)
            } catch {
                #expect(error.position != nil, "\(url.lastPathComponent): \(error)")
            }
        }
    }
}

// MARK: - Reading

@Suite("JSON reader")
struct JSONReaderTests {
    @Test func scalarsAndContainers() throws {
        let value = try readJSON("""
            { "z": 1, "a": [true, false, "s", -2, 1.5, 1e3, -0.0, 0, -0],
              "m": {}, "e": [] }
            """)
        #expect(value.keys == ["z", "a", "m", "e"])
        #expect(value["a"] == .array([
            .bool(true), .bool(false), .string("s"), .int(-2), .double(1.5), .double(1000),
            .double(-0.0), .int(0), .int(0),
        ]))
        #expect(value["m"] == .dictionary([:]))
        #expect(value["e"] == .array([]))
    }

    @Test func topLevelScalars() throws {
        #expect(try readJSON(" 42 ") == .int(42))
        #expect(try readJSON("\"x\"") == .string("x"))
        #expect(try readJSON("true\n") == .bool(true))
        #expect(try readJSON("2.5E-3") == .double(0.0025))
    }

    @Test func integerRange() throws {
        #expect(try readJSON("18446744073709551615") == .integer(PlistInteger(UInt64.max)))
        #expect(try readJSON("-9223372036854775808") == .int(Int64.min))
        #expect(try readJSON("9223372036854775808") == .integer(PlistInteger(UInt64(Int64.max) + 1)))
        let below = try #require(readError("-9223372036854775809"))
        #expect(below.position == .text(line: 1, column: 1))
        #expect(below.message.contains("out of range"))
    }

    @Test func escapes() throws {
        let value = try readJSON(#""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u4e2d\ud83d\ude00\u0000""#)
        #expect(value == .string("a\"b\\c/d\u{8}\u{C}\n\r\tAé中😀\u{0}"))
    }

    @Test func rawUTF8Strings() throws {
        #expect(try readJSON("[\"日本語 🎉\", \"é\\n\"]") == .array([.string("日本語 🎉"), .string("é\n")]))
    }

    @Test func byteOrderMarks() throws {
        #expect(try readJSON([0xEF, 0xBB, 0xBF] + Array("{\"k\": 1}".utf8)) == .dictionary(["k": .int(1)]))
        let text = "{\"k\": \"é😀\"}"
        let le: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(try readJSON(le) == .dictionary(["k": .string("é😀")]))
        #expect(try readJSON(be) == .dictionary(["k": .string("é😀")]))
        // An odd byte count cannot be UTF-16.
        let broken = try #require(readError([0xFF, 0xFE, 0x41]))
        #expect(broken.position == .text(line: 1, column: 1))
    }

    @Test func deepButAllowedNesting() throws {
        let depth = JSONPlistReader.maxDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try readJSON(text)
        var levels = 1
        while case .array(let items) = value, let first = items.first {
            value = first
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test func positionsCountLinesAndByteColumns() throws {
        let error = try #require(readError("{\r\n  \"é\": [1,\n    2,, 3]\n}"))
        #expect(error.position == .text(line: 3, column: 7))
    }
}

// MARK: - Errors

/// A malformed input and where the reader must report it.
struct BadJSON: Sendable, CustomTestStringConvertible {
    var name: String
    var input: [UInt8]
    var line: Int
    var column: Int
    var messageFragment: String

    init(_ name: String, _ input: String, _ line: Int, _ column: Int, _ messageFragment: String) {
        self.init(name, Array(input.utf8), line, column, messageFragment)
    }

    init(_ name: String, _ input: [UInt8], _ line: Int, _ column: Int, _ messageFragment: String) {
        self.name = name
        self.input = input
        self.line = line
        self.column = column
        self.messageFragment = messageFragment
    }

    var testDescription: String { name }

    static let all: [BadJSON] = [
        BadJSON("trailing comma in array", "[1, 2,\n]", 1, 6, "trailing comma"),
        BadJSON("trailing comma in object", "{\"a\": 1,}", 1, 8, "trailing comma"),
        BadJSON("leading zero", "[\n  01\n]", 2, 3, "leading zero"),
        BadJSON("negative leading zero", "-012", 1, 1, "leading zero"),
        BadJSON("plus sign", "[+1]", 1, 2, "'+'"),
        BadJSON("fraction without integer part", "[.5]", 1, 2, "digit before '.'"),
        BadJSON("fraction without digits", "[1.]", 1, 4, "after '.'"),
        BadJSON("exponent without digits", "1e+", 1, 4, "exponent"),
        BadJSON("bare minus", "-", 1, 2, "after '-'"),
        BadJSON("unterminated string", "{\"key\": \"abc", 1, 9, "unterminated string"),
        BadJSON("lone high surrogate", "\"ab\\ud83dx\"", 1, 4, "lone surrogate"),
        BadJSON("lone low surrogate", "[\n\"\\uDE00\"]", 2, 2, "lone surrogate"),
        BadJSON("high surrogate then non-surrogate", "\"\\ud83d\\u0041\"", 1, 2, "lone surrogate"),
        BadJSON("control character in string", "[\"a\tb\"]", 1, 4, "control character"),
        BadJSON("newline in string", "\"a\nb\"", 1, 3, "control character"),
        BadJSON("invalid escape", "\"\\x\"", 1, 2, "invalid escape"),
        BadJSON("escaped newline", "\"a\\\nb\"", 1, 3, "invalid escape '\\' followed by U+000A"),
        BadJSON("backslash at end of input", "[\"ab\\", 1, 2, "unterminated string"),
        BadJSON("truncated unicode escape", "\"\\u12", 1, 1, "unterminated string"),
        BadJSON("short unicode escape", "\"\\u12G4\"", 1, 2, "four hex digits"),
        BadJSON("null", "{\n  \"a\": null\n}", 2, 8, "no null"),
        BadJSON("duplicate key", "{\n  \"k\": 1,\n  \"k\": 2\n}", 3, 3, "duplicate key \"k\" (first defined at 2:3)"),
        BadJSON("integer above UInt64.max", "[18446744073709551616]", 1, 2, "integer 18446744073709551616 out of range"),
        BadJSON("real overflowing to infinity", "1e400", 1, 1, "out of range"),
        BadJSON("trailing garbage", "{\"a\": 1} x", 1, 10, "after the top-level value"),
        BadJSON("two top-level values", "1 2", 1, 3, "after the top-level value"),
        BadJSON("empty input", "", 1, 1, "empty input"),
        BadJSON("whitespace only", " \n ", 2, 2, "empty input"),
        BadJSON("form feed is not JSON whitespace", "\u{C}1", 1, 1, "expected a JSON value"),
        BadJSON("unquoted key", "{a: 1}", 1, 2, "string key"),
        BadJSON("missing colon", "{\"a\" 1}", 1, 6, "':'"),
        BadJSON("missing comma", "[1 2]", 1, 4, "expected ',' or ']'"),
        BadJSON("unclosed array", "[1,\n 2", 2, 3, "array opened at 1:1 is not closed"),
        BadJSON("unclosed object", "{\"a\": [1]", 1, 10, "object opened at 1:1 is not closed"),
        BadJSON("NaN", "[NaN]", 1, 2, "unexpected word 'NaN'"),
        BadJSON("True", "True", 1, 1, "unexpected word"),
        BadJSON("single quotes", "['a']", 1, 2, "expected a JSON value"),
        BadJSON("invalid UTF-8 in string", [0x5B, 0x22, 0x61, 0xC3, 0x28, 0x22, 0x5D], 1, 4, "invalid UTF-8"),
        BadJSON("overlong UTF-8", [0x22, 0xC0, 0xAF, 0x22], 1, 2, "invalid UTF-8"),
        BadJSON("UTF-8 surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], 1, 2, "invalid UTF-8"),
        BadJSON("truncated UTF-8", [0x22, 0xE6, 0x97], 1, 2, "invalid UTF-8"),
        BadJSON("non-ASCII outside string", [0x5B, 0xC3, 0xA9, 0x5D], 1, 2, "non-ASCII"),
    ]
}

@Suite("JSON reader errors")
struct JSONReaderErrorTests {
    @Test(arguments: BadJSON.all)
    func reportsPosition(_ bad: BadJSON) throws {
        let error = try #require(readError(bad.input))
        #expect(error.position == .text(line: bad.line, column: bad.column), "\(error)")
        #expect(error.message.contains(bad.messageFragment), "\(error)")
    }

    /// 100 000 nested '[' must fail at the first level past the limit, without recursion.
    @Test func hostileNesting() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(readError(String(repeating: "[", count: 100_000)))
        let elapsed = clock.now - start
        #expect(error.position == .text(line: 1, column: JSONPlistReader.maxDepth + 1))
        #expect(error.message.contains("deeper than 512"))
        #expect(elapsed < .seconds(2))
    }

    @Test func hostileNestingOfObjects() throws {
        let error = try #require(readError(String(repeating: "{\"a\":", count: 100_000)))
        #expect(error.position == .text(line: 1, column: 5 * JSONPlistReader.maxDepth + 1))
    }
}

// MARK: - Writing

@Suite("JSON writer")
struct JSONWriterTests {
    @Test func prettyLayout() throws {
        let value: PlistValue = .dictionary([
            "name": .string("devkit"),
            "count": .int(3),
            "ratio": .double(0.5),
            "flags": .array([.bool(true), .bool(false)]),
            "empty array": .array([]),
            "empty dict": .dictionary([:]),
            "nested": .dictionary(["big": .integer(PlistInteger(UInt64.max))]),
        ])
        #expect(try writeJSON(value) == """
            {
              "name": "devkit",
              "count": 3,
              "ratio": 0.5,
              "flags": [
                true,
                false
              ],
              "empty array": [],
              "empty dict": {},
              "nested": {
                "big": 18446744073709551615
              }
            }

            """)
    }

    @Test func scalarRoot() throws {
        #expect(try writeJSON(.string("x")) == "\"x\"\n")
        #expect(try writeJSON(.array([])) == "[]\n")
    }

    @Test func stringEscapes() throws {
        let s = "q\"b\\s/\u{8}\u{C}\n\r\t\u{0}\u{1F}\u{7F}é😀"
        #expect(try writeJSON(.string(s)) == "\"q\\\"b\\\\s/\\b\\f\\n\\r\\t\\u0000\\u001f\u{7F}é😀\"\n")
    }

    @Test func realsAreValidJSON() throws {
        for (value, text) in [(1.0, "1.0"), (1e-05, "1e-05"), (-0.0, "-0.0"), (1e300, "1e+300"), (.leastNonzeroMagnitude, "5e-324")] {
            #expect(try writeJSON(.double(value)) == text + "\n")
        }
    }

    @Test func datesAndDataBecomeStrings() throws {
        let date = try #require(PlistDate(year: 2024, month: 2, day: 29, hour: 12, minute: 0, second: 5))
        let value: PlistValue = .array([.date(date), .data([0, 1, 2, 255])])
        #expect(try writeJSON(value) == "[\n  \"2024-02-29T12:00:05Z\",\n  \"AAEC/w==\"\n]\n")
        // Lossy: they read back as strings.
        let bytes = try JSONPlistWriter.write(value)
        #expect(try readJSON(bytes) == .array([.string("2024-02-29T12:00:05Z"), .string("AAEC/w==")]))
    }

    @Test func strictModeRejectsDatesAndData() throws {
        #expect(throws: PlistError.self) { try JSONPlistWriter.write(.data([1]), nonJSONValues: .reject) }
        let date = PlistDate(secondsSinceReferenceDate: 0)
        #expect(throws: PlistError.self) { try JSONPlistWriter.write(.date(date), nonJSONValues: .reject) }
    }

    @Test(arguments: [
        (PlistValue.dictionary(["a": .array([.int(1), .uid(7)])]), "root[\"a\"][1]: JSON cannot hold a UID"),
        (PlistValue.double(.nan), "root: real nan has no JSON form"),
        (PlistValue.array([.double(.infinity)]), "root[0]: real inf has no JSON form"),
        (PlistValue.double(-.infinity), "real -inf has no JSON form"),
    ])
    func unwritableValues(_ value: PlistValue, _ fragment: String) throws {
        do {
            _ = try JSONPlistWriter.write(value)
            Issue.record("expected an error")
        } catch {
            #expect(error.position == nil)
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    @Test func deterministic() throws {
        let value: PlistValue = .dictionary(["b": .int(1), "a": .int(2), "c": .dictionary(["y": .int(1), "x": .int(2)])])
        let first = try JSONPlistWriter.write(value)
        #expect(try JSONPlistWriter.write(value) == first)
        #expect(try readJSON(first).keys == ["b", "a", "c"])
    }
}

// MARK: - Round trips

@Suite("JSON round trips")
struct JSONRoundTripTests {
    static let values: [PlistValue] = [
        .dictionary([
            "nested": .array([.dictionary(["deep": .array([.array([]), .dictionary([:]), .int(-1)])])]),
            "zeta": .bool(true),
            "alpha": .bool(false),
        ]),
        .string("unicode: 日本語 עִבְרִית 👩‍👩‍👧‍👦 🇫🇷 e\u{301}"),
        .string("escapes: \" \\ / \u{8} \u{C} \n \r \t \u{0} \u{1} \u{1F} \u{7F} \u{2028} \u{FEFF}"),
        .dictionary(["key with \"quotes\"\n and \\ and 😀": .string("")]),
        .int(Int64.min),
        .int(Int64.max),
        .integer(PlistInteger(UInt64.max)),
        .int(0),
        .double(-0.0),
        .double(1e300),
        .double(.leastNonzeroMagnitude),
        .double(0.1),
        .double(-123.456e-7),
        .double(2.0),
        .double(Double.greatestFiniteMagnitude),
        .array([.int(Int64.min), .integer(PlistInteger(UInt64.max)), .double(-0.0), .double(1e300), .double(.leastNonzeroMagnitude)]),
    ]

    @Test(arguments: values)
    func writeThenRead(_ value: PlistValue) throws {
        let bytes = try JSONPlistWriter.write(value)
        #expect(try readJSON(bytes) == value, "\(String(decoding: bytes, as: UTF8.self))")
    }

    @Test func deepNestingRoundTrips() throws {
        var value: PlistValue = .string("leaf")
        for i in 0..<(JSONPlistReader.maxDepth - 1) {
            value = i.isMultiple(of: 2) ? .array([value]) : .dictionary(["k": value])
        }
        #expect(try readJSON(JSONPlistWriter.write(value)) == value)
    }
}

/// The recording read that places findings in JSON files: where each value starts, by key
/// path, the same whether every value is recorded or only the paths asked for.
@Suite("JSON recording read")
struct JSONRecordingTests {
    static let text = "\u{FEFF}{\n  \"a\": [1, {\"b\": \"x\\\"y\"}],\r\n  \"c\\u00e9\": {\"d\": true}, \"e\": []\n}"

    static func offsets(focus: [[String]]?) throws -> [[String]: Int]? {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { raw in
            try Result { () throws(PlistError) in try JSONPlistReader.readRecordingOffsets(raw, focus: focus) }.get().offsets
        }
    }

    @Test func everyValueStartsWhereItsTextDoes() throws {
        let all = try #require(try Self.offsets(focus: nil))
        let body = Array(Self.text.utf8.dropFirst(3))  // offsets count from after the byte-order mark
        func first(_ path: [String]) -> UInt8? { all[path].map { body[$0] } }
        #expect(first([]) == UInt8(ascii: "{"))
        #expect(first(["a"]) == UInt8(ascii: "["))
        #expect(first(["a", "0"]) == UInt8(ascii: "1"))
        #expect(first(["a", "1", "b"]) == UInt8(ascii: "\""))
        #expect(first(["cé", "d"]) == UInt8(ascii: "t"))
        #expect(first(["e"]) == UInt8(ascii: "["))
        #expect(all.count == 8)
    }

    @Test func aFocusRecordsThosePathsAndTheirAncestorsOnly() throws {
        let all = try #require(try Self.offsets(focus: nil))
        let focused = try #require(try Self.offsets(focus: [["a", "1", "b"], ["cé", "nothing"]]))
        #expect(Set(focused.keys) == [[], ["a"], ["a", "1"], ["a", "1", "b"], ["cé"]])
        for (path, offset) in focused { #expect(all[path] == offset) }
    }

    @Test func utf16TextHasNoOffsets() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "{\"a\": 1}".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let result = try bytes.withUnsafeBytes { raw in
            try Result { () throws(PlistError) in try JSONPlistReader.readRecordingOffsets(raw) }.get()
        }
        #expect(result.value == .dictionary(["a": .int(1)]))
        #expect(result.offsets == nil)
    }
}
