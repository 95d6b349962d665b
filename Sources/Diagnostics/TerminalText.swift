/// Untrusted strings made safe for a terminal: profile names, process, symbol and module
/// names and paths come from input files, and a raw ESC, BEL or CR in them would let a file
/// rewrite the screen, ring the bell or hide text. Every text renderer passes them through
/// here (JSON has its own escaping).
public enum TerminalText {
    /// `text` with every control character written as a visible escape: C0 controls (tab and
    /// newline included, so a name cannot forge a line) and DEL as `\x1B`-style hex, C1
    /// controls (U+0080–U+009F) as `\u{9B}`. Text without control characters comes back as is.
    public static func escaped(_ text: String) -> String {
        escape(text, keepingLines: false)
    }

    /// The same for a whole rendered report, whose own newlines and tabs are kept: for
    /// renderers that build text from many untrusted fields and escape once at the end.
    public static func escapedKeepingLines(_ text: String) -> String {
        escape(text, keepingLines: true)
    }

    private static func isControl(_ scalar: Unicode.Scalar, keepingLines: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !keepingLines
        case 0x00..<0x20, 0x7F, 0x80..<0xA0: true
        default: false
        }
    }

    private static func escape(_ text: String, keepingLines: Bool) -> String {
        // Fast path over the UTF-8 bytes (symbolication escapes every frame): C0 and DEL are
        // single bytes and every C1 control starts with 0xC2, so text without them has none.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }),
              text.unicodeScalars.contains(where: { isControl($0, keepingLines: keepingLines) })
        else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard isControl(scalar, keepingLines: keepingLines) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            result += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
        }
        return result
    }
}
