import PropertyList

/// Reading the subject dictionary.
extension PlistValue {
    var integer: Int? { if case .integer(let i) = self, let v = i.int64Value { Int(v) } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var date: PlistDate? { if case .date(let d) = self { d } else { nil } }
}
