import System

/// A point in time as plists store it: seconds since 2001-01-01T00:00:00Z (Apple's reference
/// date), as a `Double` like binary plists do.
///
/// Conversion to and from ISO-8601 is written out here (proleptic Gregorian calendar, UTC)
/// instead of going through Foundation's formatters: they are slow on the hot path of a
/// 300k-leaf conversion and their leniency would accept dates this reader must reject.
public struct PlistDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let secondsSinceReferenceDate: Double

    public init(secondsSinceReferenceDate: Double) {
        self.secondsSinceReferenceDate = secondsSinceReferenceDate
    }

    public static func < (lhs: PlistDate, rhs: PlistDate) -> Bool {
        lhs.secondsSinceReferenceDate < rhs.secondsSinceReferenceDate
    }

    /// Days from 1970-01-01 to 2001-01-01.
    static let referenceDaysFrom1970: Int64 = 11_323

    /// Earliest and latest instants whose year has four digits (0001 ... 9999): the range the
    /// XML `<date>` form can spell. Binary dates outside it are rejected as corrupt.
    public static let validRange: ClosedRange<Double> = -63_113_904_000.0 ... 252_423_993_599.0

    /// Creates a date from calendar fields; nil for impossible dates (month 13, Feb 30, 24:00).
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        let days = Self.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
            - Self.referenceDaysFrom1970
        let seconds = days * 86_400 + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
        self.secondsSinceReferenceDate = Double(seconds)
    }

    /// Parses exactly `YYYY-MM-DDTHH:MM:SSZ` (the form Apple's XML writer emits).
    public init?<S: Collection<UInt8>>(iso8601 text: S) where S.Index == Int {
        guard text.count == 20 else { return nil }
        let s = text.startIndex
        func digits(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for i in from..<(from + count) {
                let c = text[s + i]
                guard c >= 0x30, c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            return v
        }
        guard text[s + 4] == UInt8(ascii: "-"), text[s + 7] == UInt8(ascii: "-"),
              text[s + 10] == UInt8(ascii: "T"), text[s + 13] == UInt8(ascii: ":"),
              text[s + 16] == UInt8(ascii: ":"), text[s + 19] == UInt8(ascii: "Z"),
              let y = digits(0, 4), let mo = digits(5, 2), let d = digits(8, 2),
              let h = digits(11, 2), let mi = digits(14, 2), let se = digits(17, 2)
        else { return nil }
        self.init(year: y, month: mo, day: d, hour: h, minute: mi, second: se)
    }

    /// Calendar fields in UTC, seconds rounded down; nil outside `validRange` or for nan.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)? {
        guard Self.validRange.contains(secondsSinceReferenceDate) else { return nil }
        let total = Int64(secondsSinceReferenceDate.rounded(.down))
        let days = total >= 0 ? total / 86_400 : -((-total + 86_399) / 86_400)
        let secondOfDay = total - days * 86_400
        let (y, m, d) = Self.civilFromDays(days + Self.referenceDaysFrom1970)
        return (Int(y), Int(m), Int(d), Int(secondOfDay / 3600), Int(secondOfDay % 3600 / 60), Int(secondOfDay % 60))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`; dates outside `validRange` print as their raw seconds.
    public var iso8601: String {
        guard let c = components else { return "\(secondsSinceReferenceDate)" }
        func pad(_ v: Int, _ width: Int) -> String { String(v).leftPadded(width) }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))Z"
    }

    public var description: String { iso8601 }

    /// Appends `iso8601`'s bytes without making a `String` (writers of large files): the
    /// twenty bytes are laid out on the stack and appended once.
    package func appendISO8601(to out: inout some ByteSink & ~Copyable) {
        guard let c = components else { return out.write(iso8601) }
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { p in
            func two(_ value: Int, at i: Int) {
                p[i] = UInt8(ascii: "0") + UInt8(value / 10 % 10)
                p[i + 1] = UInt8(ascii: "0") + UInt8(value % 10)
            }
            two(c.year / 100, at: 0); two(c.year % 100, at: 2)  // years 1...9999
            p[4] = UInt8(ascii: "-"); two(c.month, at: 5); p[7] = UInt8(ascii: "-"); two(c.day, at: 8)
            p[10] = UInt8(ascii: "T"); two(c.hour, at: 11); p[13] = UInt8(ascii: ":"); two(c.minute, at: 14)
            p[16] = UInt8(ascii: ":"); two(c.second, at: 17); p[19] = UInt8(ascii: "Z")
            out.write(UnsafeBufferPointer(start: p.baseAddress?.assumingMemoryBound(to: UInt8.self), count: 20))
        }
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days (public domain algorithms): days from
    // 1970-01-01 in the proleptic Gregorian calendar and back. Crash timestamps use them too.
    package static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    package static func civilFromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
