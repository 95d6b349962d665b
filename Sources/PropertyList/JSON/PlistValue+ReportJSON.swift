import JSONWriter

extension PlistValue {
    /// The value as JSON for reports that show property-list values (the diff report), where
    /// every value must be written: dates become ISO-8601 strings, data base64 strings, UIDs
    /// `{"CF$UID": n}`, nan and infinities the strings `nan`, `inf` and `-inf`. A value holding
    /// a date without an ISO-8601 form (years 1...9999 only) is `null` as a whole.
    package var reportJSONValue: JSONValue {
        reportJSONValueIfDatesFit ?? .null
    }

    private var reportJSONValueIfDatesFit: JSONValue? {
        switch self {
        case .string(let s): return .string(s)
        case .integer(let i):
            if let signed = i.int64Value { return .integer(signed) }
            return .unsignedInteger(i.magnitude)
        case .real(let r): return r.value.isFinite ? .double(r.value) : .string(r.description)
        case .bool(let b): return .bool(b)
        case .date(let d): return d.components == nil ? nil : .string(d.iso8601)
        case .data(let bytes): return .string(Base64.encodedString(bytes))
        case .uid(let u): return ["CF$UID": .number(u)]
        case .array(let items):
            var values: [JSONValue] = []
            values.reserveCapacity(items.count)
            for item in items {
                guard let value = item.reportJSONValueIfDatesFit else { return nil }
                values.append(value)
            }
            return .array(values)
        case .dictionary(let dict):
            var members: [JSONMember] = []
            members.reserveCapacity(dict.count)
            for (key, item) in dict {
                guard let value = item.reportJSONValueIfDatesFit else { return nil }
                members.append(JSONMember(key, value))
            }
            return .object(members)
        }
    }
}
