import System

/// An integer in the range every plist format can carry: `Int64.min ... UInt64.max`.
///
/// Values above `Int64.max` appear in real files (libplist writes `UINT64_MAX` as a 16-byte
/// binary integer), so the model holds them exactly instead of wrapping.
public struct PlistInteger: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// True for values below zero.
    public let isNegative: Bool
    /// The absolute value; for negative numbers at most `2^63`.
    public let magnitude: UInt64

    public init(_ value: Int64) {
        isNegative = value < 0
        magnitude = value.magnitude
    }

    public init(_ value: UInt64) {
        isNegative = false
        magnitude = value
    }

    /// Builds a value from sign and magnitude; nil when it falls outside `Int64.min ... UInt64.max`.
    public init?(isNegative: Bool, magnitude: UInt64) {
        if isNegative && magnitude > UInt64(Int64.max) + 1 { return nil }
        self.isNegative = isNegative && magnitude != 0
        self.magnitude = magnitude
    }

    /// The value as `Int64`, or nil above `Int64.max`.
    public var int64Value: Int64? {
        if isNegative { return Int64(truncatingIfNeeded: 0 &- magnitude) }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The value as `UInt64`, or nil when negative.
    public var uint64Value: UInt64? { isNegative ? nil : magnitude }

    public var description: String { isNegative ? "-\(magnitude)" : "\(magnitude)" }

    /// Appends `description`'s bytes without making a `String` (writers of large files).
    package func appendDecimal(to out: inout some ByteSink & ~Copyable) {
        if isNegative { out.write(UInt8(ascii: "-")) }
        out.writeDecimal(magnitude)
    }

    public static func < (lhs: PlistInteger, rhs: PlistInteger) -> Bool {
        switch (lhs.isNegative, rhs.isNegative) {
        case (true, false): return true
        case (false, true): return false
        case (false, false): return lhs.magnitude < rhs.magnitude
        case (true, true): return lhs.magnitude > rhs.magnitude
        }
    }

    /// Parses decimal (`-12`, `+5`) or hexadecimal (`0x1F`, `-0x10`) text, checking the range.
    public init?<S: Collection<UInt8>>(ascii text: S) {
        var index = text.startIndex
        var negative = false
        if index != text.endIndex, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index = text.index(after: index)
        }
        var radix: UInt64 = 10
        let rest = text[index...]
        if rest.count > 2, rest[rest.startIndex] == UInt8(ascii: "0"),
           rest[rest.index(after: rest.startIndex)] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            index = text.index(index, offsetBy: 2)
        }
        guard index != text.endIndex else { return nil }
        var magnitude: UInt64 = 0
        while index != text.endIndex {
            let c = text[index]
            let digit: UInt64
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
            let (m, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (s, o2) = m.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            magnitude = s
            index = text.index(after: index)
        }
        self.init(isNegative: negative, magnitude: magnitude)
    }
}

extension PlistInteger {
    /// True when `text` is an optionally signed run of digits (decimal or 0x hex): an integer
    /// that failed to parse only because it is out of range.
    static func looksNumeric<S: Collection<UInt8>>(_ text: S) -> Bool {
        var body = Substring(decoding: Array(text), as: UTF8.self)
        if body.hasPrefix("-") || body.hasPrefix("+") { body = body.dropFirst() }
        if body.lowercased().hasPrefix("0x") {
            body = body.dropFirst(2)
            return !body.isEmpty && body.allSatisfy(\.isHexDigit)
        }
        return !body.isEmpty && body.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
