import PropertyList

extension PlistValue {
    /// An integer that fits in `Int`; nil for anything else.
    var intValue: Int? {
        guard case .integer(let i) = self, let magnitude = Int(exactly: i.magnitude) else { return nil }
        return i.isNegative ? -magnitude : magnitude
    }
}
