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
