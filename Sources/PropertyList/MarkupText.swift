/// Text made safe to put inside HTML, XML or SVG markup.
///
/// Strings here come from files devkit reads (labels, function names, paths, bundle names)
/// and may hold markup of their own. `XMLPlistWriter` keeps its own byte-level escaper: a
/// plist must round-trip (CR as `&#13;`, control characters an error, quotes left alone),
/// and it runs on every string of a large plist.
public enum MarkupText {
    /// `text` escaped for element content and quoted attribute values (`&`, `<`, `>`, `"`,
    /// `'`). C0 and C1 controls other than tab and newline are not allowed in HTML (or XML):
    /// they become U+FFFD.
    public static func escape(_ text: String) -> String {
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
}
