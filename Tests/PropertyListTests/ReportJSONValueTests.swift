import JSONWriter
import PropertyList
import Testing

/// `PlistValue.reportJSONValue`: every property-list value has a JSON form in reports.
@Suite struct ReportJSONValueTests {
    @Test func valuesJSONCannotHoldAreSpelledAsStrings() {
        let value: PlistValue = .array([
            .date(PlistDate(secondsSinceReferenceDate: 86_400)), .data([0, 1, 2, 255]), .uid(7),
            .double(.nan), .double(-.infinity), .double(0.5),
            .integer(PlistInteger(UInt64.max)), .integer(PlistInteger(Int64.min)),
            .dictionary(["b": .bool(true), "a": .string("x")]),
        ])
        #expect(JSONWriter.inlineText(value.reportJSONValue) == """
            ["2001-01-02T00:00:00Z", "AAEC/w==", {"CF$UID": 7}, "nan", "-inf", 0.5, \
            18446744073709551615, -9223372036854775808, {"b": true, "a": "x"}]
            """)
    }

    /// A date outside years 1...9999 has no ISO-8601 form: the whole value is `null`.
    @Test func dateWithoutISO8601FormMakesTheValueNull() {
        let value: PlistValue = .array([.string("kept?"), .date(PlistDate(secondsSinceReferenceDate: 1e15))])
        #expect(value.reportJSONValue == .null)
    }
}
