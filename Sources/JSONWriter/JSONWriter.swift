/// Writes `JSONValue`s in devkit's JSON layout (see `JSONOutput`): the same bytes the
/// property-list JSON writer gives for the same structure, so modules that only report JSON
/// need not build property lists.
public enum JSONWriter {
    /// Pretty-printed JSON with a final newline.
    public static func write(_ value: JSONValue) -> [UInt8] {
        var output = JSONOutput()
        output.write(value, depth: 0)
        output.bytes.append(0x0A)
        return output.bytes
    }

    /// Pretty-printed JSON with a final newline, as a string.
    public static func text(_ value: JSONValue) -> String {
        String(decoding: write(value), as: UTF8.self)
    }

    /// One-line JSON without a newline: `[1, 2]`, `{"k": "v"}`.
    public static func inlineText(_ value: JSONValue) -> String {
        var output = JSONOutput(inline: true)
        output.write(value, depth: 0)
        return String(decoding: output.bytes, as: UTF8.self)
    }
}
