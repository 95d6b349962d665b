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

extension JSONOutput {
    /// Appends `value`, its containers' items indented below `depth`.
    public mutating func write(_ value: JSONValue, depth: Int) {
        switch value {
        case .string(let s): string(s)
        case .integer(let i): raw(String(i))
        case .unsignedInteger(let u): raw(String(u))
        case .double(let d): raw(d.isFinite ? d.description : "null")
        case .bool(let b): raw(b ? "true" : "false")
        case .null: raw("null")
        case .array(let items):
            guard !items.isEmpty else { return raw("[]") }
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                beginItem(index, depth: depth)
                write(item, depth: depth + 1)
            }
            endContainer(UInt8(ascii: "]"), depth: depth)
        case .object(let members):
            guard !members.isEmpty else { return raw("{}") }
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                beginItem(index, depth: depth)
                key(member.key)
                write(member.value, depth: depth + 1)
            }
            endContainer(UInt8(ascii: "}"), depth: depth)
        }
    }
}
