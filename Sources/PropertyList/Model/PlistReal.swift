/// A floating-point value whose equality is by bit pattern, so `-0.0 != 0.0` and
/// `nan == nan`: what a round trip must preserve, not what arithmetic compares.
public struct PlistReal: Hashable, Sendable, CustomStringConvertible {
    public let value: Double

    public init(_ value: Double) { self.value = value }

    public static func == (lhs: PlistReal, rhs: PlistReal) -> Bool {
        if lhs.value.isNaN && rhs.value.isNaN { return true }
        return lhs.value.bitPattern == rhs.value.bitPattern
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value.isNaN ? Double.nan.bitPattern : value.bitPattern)
    }

    /// Text as plists spell it: `nan`, `inf`, `-inf`, else the shortest exact decimal.
    public var description: String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return value.description
    }
}

extension PlistReal {
    /// Parses a real as XML and OpenStep plists spell it: decimal or exponent notation,
    /// `nan`, `inf`, `infinity` (any case, optional sign). Nil for anything else.
    package static func parse<S: Collection<UInt8>>(_ text: S) -> PlistReal? {
        guard !text.isEmpty, text.count <= 512 else { return nil }
        // Swift's parser also takes hex floats and "nan(…)"; keep to decimal notation.
        let decimal = text.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e")
                || c == UInt8(ascii: "E") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
        }
        let string = String(decoding: Array(text), as: UTF8.self)
        // The common case: digits only (no lowercased copy, no comparisons with the words).
        if decimal { return Double(string).map(PlistReal.init) }
        switch string.lowercased() {
        case "nan", "+nan", "-nan": return PlistReal(.nan)
        case "inf", "+inf", "infinity", "+infinity": return PlistReal(.infinity)
        case "-inf", "-infinity": return PlistReal(-.infinity)
        default: break
        }
        return nil
    }
}
