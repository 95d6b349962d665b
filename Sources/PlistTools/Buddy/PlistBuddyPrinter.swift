import PropertyList

/// PlistBuddy's `Print` layout.
public enum PlistBuddyPrinter {
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Renders `value` and a trailing newline: strings bare, `Dict {`/`Array {` blocks with
    /// four-space indentation, data as its raw bytes.
    public static func render(_ value: PlistValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, indent: 0, into: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    static func write(_ value: PlistValue, indent: Int, into out: inout [UInt8]) {
        let pad = Array(repeating: UInt8(ascii: " "), count: (indent + 1) * 4)
        switch value {
        case .string(let s): out += Array(s.utf8)
        case .integer(let n): out += Array(n.description.utf8)
        // PlistBuddy prints reals with printf-style formatting; this uses the shortest exact decimal.
        case .real(let r): out += Array(r.description.utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .date(let d): out += Array(formatDate(d).utf8)
        case .data(let bytes): out += bytes
        case .uid(let n): out += Array("\(n)".utf8)
        case .array(let items):
            out += Array("Array {\n".utf8)
            for item in items {
                out += pad
                write(item, indent: indent + 1, into: &out)
                out.append(UInt8(ascii: "\n"))
            }
            out += Array(repeating: UInt8(ascii: " "), count: indent * 4)
            out.append(UInt8(ascii: "}"))
        case .dictionary(let dict):
            out += Array("Dict {\n".utf8)
            for (key, item) in dict {
                out += pad
                out += Array("\(key) = ".utf8)
                write(item, indent: indent + 1, into: &out)
                out.append(UInt8(ascii: "\n"))
            }
            out += Array(repeating: UInt8(ascii: " "), count: indent * 4)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `Mon Nov 20 09:30:00 UTC 2026`. Approximate: PlistBuddy prints in the local time zone;
    /// this always prints UTC.
    public static func formatDate(_ date: PlistDate) -> String {
        guard let c = date.components else { return date.iso8601 }
        let total = date.secondsSinceReferenceDate.rounded(.down)
        let days = Int64((total / 86_400).rounded(.down))
        let weekday = Int(((days % 7) + 7) % 7)  // 2001-01-01 was a Monday
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekdays[weekday]) \(months[c.month - 1]) \(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) UTC \(c.year)"
    }

    /// Parses ISO-8601 (`2026-11-20T09:30:00Z`) or the printed form (`Mon Nov 20 09:30:00 UTC 2026`;
    /// the zone name is ignored and UTC assumed).
    public static func parseDate(_ text: String) -> PlistDate? {
        if let d = PlistDate(iso8601: Array(text.utf8)) { return d }
        let parts = text.split(separator: " ")
        guard parts.count == 6, let month = months.firstIndex(where: { $0.lowercased() == parts[1].lowercased() }),
              let day = Int(parts[2]), let year = Int(parts[5]) else { return nil }
        let time = parts[3].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        return PlistDate(year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2])
    }
}
