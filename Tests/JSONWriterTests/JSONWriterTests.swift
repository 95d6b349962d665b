import JSONWriter
import PropertyList
import Testing

/// `JSONWriter`: the layout, escaping and numbers of devkit's JSON, byte for byte the same as
/// the property-list JSON writer's for the same structure.
@Suite struct JSONWriterTests {
    @Test func prettyLayout() {
        let value: JSONValue = ["name": "devkit", "count": 3, "items": [true, nil, 1.5], "empty": [:], "none": []]
        #expect(JSONWriter.text(value) == """
            {
              "name": "devkit",
              "count": 3,
              "items": [
                true,
                null,
                1.5
              ],
              "empty": {},
              "none": []
            }

            """)
    }

    @Test func inlineLayout() {
        let value: JSONValue = ["a": [1, 2], "b": ["c": "d"]]
        #expect(JSONWriter.inlineText(value) == #"{"a": [1, 2], "b": {"c": "d"}}"#)
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote \" backslash \\", #""quote \" backslash \\""#),
        ("\u{8}\u{c}\n\r\t", #""\b\f\n\r\t""#),
        ("\u{1}\u{1f}", #""\u0001\u001f""#),
        ("/ é 🙂", #""/ é 🙂""#),
    ])
    func stringEscaping(text: String, json: String) {
        #expect(JSONWriter.inlineText(.string(text)) == json)
    }

    @Test func integersAreExact() {
        #expect(JSONWriter.inlineText([.integer(.min), .unsignedInteger(.max), .number(UInt64(5)), .number(-7)])
            == "[-9223372036854775808, 18446744073709551615, 5, -7]")
        #expect(JSONValue.number(UInt64.max) == .unsignedInteger(.max))
    }

    @Test func nonFiniteDoublesAreNull() {
        #expect(JSONWriter.inlineText([.double(.nan), .double(.infinity), .double(-0.0), .double(1e-5)]) == "[null, null, -0.0, 1e-05]")
    }

    /// Reports that used to build property lists keep their bytes when they build `JSONValue`s.
    @Test func sameBytesAsThePropertyListWriter() throws {
        let json: JSONValue = [
            "tool": "devkit", "version": 1, "ratio": 0.25, "ok": false,
            "rows": [["path": "a\tb", "count": 2], ["path": "", "count": 0]], "empty": [], "nested": ["inner": [:]],
        ]
        let plist: PlistValue = .dictionary([
            "tool": .string("devkit"), "version": .integer(PlistInteger(Int64(1))), "ratio": .real(PlistReal(0.25)), "ok": .bool(false),
            "rows": .array([.dictionary(["path": .string("a\tb"), "count": .integer(PlistInteger(Int64(2)))]),
                            .dictionary(["path": .string(""), "count": .integer(PlistInteger(Int64(0)))])]),
            "empty": .array([]), "nested": .dictionary(["inner": .dictionary([:])]),
        ])
        #expect(JSONWriter.write(json) == (try PropertyListCoding.write(plist, as: .json)))
    }
}
