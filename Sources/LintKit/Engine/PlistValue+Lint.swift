import PropertyList

extension PlistValue {
    /// A short human form for messages: strings quoted, scalars as written, containers by type.
    public var shortDescription: String {
        switch self {
        case .string(let s): "\"\(s)\""
        case .integer(let i): i.description
        case .real(let r): "\(r)"
        case .bool(let b): b ? "true" : "false"
        case .date(let d): "\(d)"
        case .data(let d): "<\(d.count) bytes>"
        case .array(let a): "array of \(a.count)"
        case .dictionary(let d): "dict of \(d.count)"
        case .uid(let u): "uid \(u)"
        }
    }

    /// The string, when this is one.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }

    /// The value of `key` when this is a dictionary.
    public subscript(key key: String) -> PlistValue? {
        if case .dictionary(let d) = self { d[key] } else { nil }
    }

    /// The entries when this is a dictionary, in file order.
    public var dictionaryEntries: [(key: String, value: PlistValue)]? {
        if case .dictionary(let d) = self { d.elements.map { ($0.key, $0.value) } } else { nil }
    }

    /// The elements when this is an array.
    public var arrayValue: [PlistValue]? { if case .array(let a) = self { a } else { nil } }
}
