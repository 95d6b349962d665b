import DevKitTestSupport
import OrderedCollections
import PropertyList

/// Random property-list values for round-trip properties, limited to what a format can hold.
public struct ValueGenerator {
    /// What the target format can hold.
    public struct Capabilities: Sendable {
        public var numbers = true, bools = true, dates = true, data = true, uids = true
        public var controlCharacters = false
        public var nonFiniteReals = true

        public init(numbers: Bool = true, bools: Bool = true, dates: Bool = true, data: Bool = true, uids: Bool = true,
                    controlCharacters: Bool = false, nonFiniteReals: Bool = true) {
            self.numbers = numbers
            self.bools = bools
            self.dates = dates
            self.data = data
            self.uids = uids
            self.controlCharacters = controlCharacters
            self.nonFiniteReals = nonFiniteReals
        }

        public static let all = Capabilities(controlCharacters: true)
        public static let xml = Capabilities()
        public static let json = Capabilities(dates: false, data: false, uids: false, nonFiniteReals: false)
        public static let openStep = Capabilities(uids: false)
    }

    public var rng: SplitMix64
    public var capabilities: Capabilities

    public init(rng: SplitMix64, capabilities: Capabilities) {
        self.rng = rng
        self.capabilities = capabilities
    }

    public mutating func value(depth: Int = 0) -> PlistValue {
        let leafKinds = 7
        let kind = depth >= 4 ? Int.random(in: 0..<leafKinds, using: &rng) : Int.random(in: 0..<(leafKinds + 2), using: &rng)
        switch kind {
        case 0: return .string(string())
        case 1 where capabilities.numbers: return .integer(integer())
        case 2 where capabilities.numbers: return .real(PlistReal(real()))
        case 3 where capabilities.bools: return .bool(Bool.random(using: &rng))
        case 4 where capabilities.dates:
            return .date(PlistDate(secondsSinceReferenceDate: Double(Int64.random(in: -60_000_000_000...250_000_000_000, using: &rng))))
        case 5 where capabilities.data:
            return .data((0..<Int.random(in: 0..<70, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
        case 6 where capabilities.uids: return .uid(UInt64.random(in: 0...UInt64(UInt32.max), using: &rng))
        case leafKinds:
            return .array((0..<Int.random(in: 0..<6, using: &rng)).map { _ in value(depth: depth + 1) })
        case leafKinds + 1:
            var dict = OrderedDictionary<String, PlistValue>()
            for _ in 0..<Int.random(in: 0..<6, using: &rng) {
                var key = string()
                if key == "CF$UID" { key += "_" }
                dict[key] = value(depth: depth + 1)
            }
            return .dictionary(dict)
        default:
            return .string(string())
        }
    }

    public mutating func integer() -> PlistInteger {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return PlistInteger(Int64.random(in: -300...300, using: &rng))
        case 1: return PlistInteger(Int64.random(in: .min ... .max, using: &rng))
        case 2: return PlistInteger(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &rng))
        case 3: return PlistInteger([Int64.min, Int64.max, 0, -1, 255, 256, 65535, 65536].randomElement(using: &rng) ?? 0)
        default: return PlistInteger(UInt64.max)
        }
    }

    public mutating func real() -> Double {
        var choices: [Double] = [0.5, -0.0, 1e300, 5e-324, 3.141592653589793, -2.5e-7, 1e16, 123456789.125]
        if capabilities.nonFiniteReals { choices += [.infinity, -.infinity, .nan] }
        return Bool.random(using: &rng) ? (choices.randomElement(using: &rng) ?? 0) : Double.random(in: -1e6...1e6, using: &rng)
    }

    public mutating func string() -> String {
        let pieces = ["a", "Z", "0", " ", "key", ".", "\\", "\"", "'", "&", "<", ">", ";", "=", "{", "(", ",",
                      "é", "ß", "日本", "🙂", "\n", "\t", "/*", "//", "$", "-", "_", "12", "0x1F", "true"]
        var s = ""
        for _ in 0..<Int.random(in: 0..<6, using: &rng) { s += pieces.randomElement(using: &rng) ?? "" }
        if capabilities.controlCharacters, Int.random(in: 0..<10, using: &rng) == 0 { s += "\u{1}\r" }
        return s
    }
}
