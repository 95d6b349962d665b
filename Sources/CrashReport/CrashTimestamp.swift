import PropertyList

/// A crash's time as a point in UTC, read from the ways the formats write it
/// (`CrashReport.timestamp`), so crashes of several formats and time zones can be ordered and
/// printed alike. No Foundation: the civil-calendar arithmetic is done here.
public struct CrashTimestamp: Hashable, Comparable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64

    public init(secondsSince1970: Int64) { self.secondsSince1970 = secondsSince1970 }

    public static func < (left: CrashTimestamp, right: CrashTimestamp) -> Bool { left.secondsSince1970 < right.secondsSince1970 }

    /// Reads `YYYY-MM-DD HH:MM:SS[.fraction] [±HHMM]` (`.crash` `Date/Time:`, `.ips`
    /// `timestamp`), `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (ISO 8601: Swift backtraces,
    /// KSCrash 1.x) and a plain integer (KSCrash: seconds since 1970; above 10^14 microseconds,
    /// above 10^11 milliseconds, as KSCrash 2 and some exporters write). A time without a zone
    /// (MetricKit's `timeStampBegin`) is taken as UTC. Fractions of a second are dropped.
    /// Nil for anything else, or a field out of range.
    public init?(_ text: String) {
        let bytes = Array(text.utf8.prefix(64))
        var position = 0
        func skipSpaces() { while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 } }
        /// Exactly `count` digits as a number.
        func digits(_ count: Int) -> Int64? {
            guard position + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[position..<(position + count)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard position < bytes.count, let ascii = character.asciiValue, bytes[position] == ascii else { return false }
            position += 1
            return true
        }
        skipSpaces()
        // A plain integer: seconds (or finer) since 1970.
        if !bytes.isEmpty, bytes[position...].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") || $0 == UInt8(ascii: " ") }),
           let number = Int64(String(decoding: bytes[position...], as: UTF8.self).trimmedWhitespace) {
            switch number {
            case 100_000_000_000_000...: secondsSince1970 = number / 1_000_000
            case 100_000_000_000...: secondsSince1970 = number / 1000
            default: secondsSince1970 = number
            }
            return
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2) else { return nil }
        guard expect("T") || expect(" ") else { return nil }
        skipSpaces()
        guard let hour = digits(2), expect(":"), let minute = digits(2), expect(":"), let second = digits(2) else { return nil }
        // The invariants of a calendar time; 60 allows a leap second.
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        if expect(".") || expect(",") {
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") { position += 1 }
        }
        skipSpaces()
        var offset: Int64 = 0
        if expect("Z") {
            offset = 0
        } else if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            guard let hours = digits(2) else { return nil }
            _ = expect(":")
            guard let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        skipSpaces()
        guard position == bytes.count else { return nil }
        let days = PlistDate.daysFromCivil(year: year, month: month, day: day)
        secondsSince1970 = days * 86400 + hour * 3600 + minute * 60 + second - offset
    }

    /// `2026-11-24T08:00:00Z`.
    public var iso8601: String {
        let days = secondsSince1970 >= 0 ? secondsSince1970 / 86400 : (secondsSince1970 - 86399) / 86400
        let rest = secondsSince1970 - days * 86400
        let (year, month, day) = PlistDate.civilFromDays(days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = year >= 0 && year < 10000 ? String(repeating: "0", count: 4 - "\(year)".count) + "\(year)" : "\(year)"
        return "\(yearText)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }
}
