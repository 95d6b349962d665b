/// Text made safe for HTML and SVG: everything a recording holds (labels, function names,
/// paths, the command line) is written by the recorded program and may hold markup.
enum HTMLText {
    /// `text` escaped for element content and quoted attribute values. C0 controls other
    /// than tab and newline are not allowed in HTML (or XML): they become U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A warm flame colour that depends only on `name` (FNV-1a), so a function keeps its
    /// colour across generations and runs.
    static func color(for name: String) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        // flamegraph.pl's "hot" palette: red 205-254, green 0-229, blue 0-54.
        let r = 205 + Int(hash & 0xFF) * 50 / 255
        let g = Int((hash >> 8) & 0xFF) * 230 / 255
        let b = Int((hash >> 16) & 0xFF) * 55 / 255
        return "rgb(\(r),\(g),\(b))"
    }

    /// A coordinate with at most two decimals, without a trailing `.0` (smaller files, and
    /// the same text on every platform).
    static func number(_ value: Double) -> String {
        let hundredths = Int64((value * 100).rounded())
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
