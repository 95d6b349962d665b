/// The on-disk forms of a property list.
public enum PlistFormat: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Apple XML (`<plist version="1.0">`).
    case xml
    /// `bplist00`.
    case binary
    /// Old-style ASCII (NeXTSTEP/OpenStep) plists and `.strings` files.
    case openStep = "openstep"
    /// JSON (a subset: JSON cannot hold dates, data or UIDs natively).
    case json

    public var description: String { rawValue }

    /// Guesses the format from the first bytes: the bplist magic; a byte-order mark; `<?xml`,
    /// `<!DOCTYPE` or `<plist`; JSON's `{"key":`/`[`/scalars; otherwise OpenStep.
    public static func detect(_ bytes: [UInt8]) -> PlistFormat {
        bytes.withUnsafeBytes { detect($0) }
    }

    public static func detect(_ bytes: UnsafeRawBufferPointer) -> PlistFormat {
        if bytes.starts(with: "bplist".utf8) { return .binary }
        // UTF-16 text: look at it as UTF-8 after decoding.
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            guard let text = TextDecoding.decodeUTF16WithBOM(bytes) else { return .openStep }
            return text.withUnsafeBytes { detectText($0) }
        }
        var body = UnsafeRawBufferPointer(rebasing: bytes[...])
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { body = UnsafeRawBufferPointer(rebasing: bytes[3...]) }
        return detectText(body)
    }

    private static func detectText(_ bytes: UnsafeRawBufferPointer) -> PlistFormat {
        var i = 0
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        guard i < bytes.count else { return .openStep }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[i...])
        switch bytes[i] {
        case UInt8(ascii: "<"):
            // `<?xml`, `<!DOCTYPE`, `<!--`, `<plist`: XML. `<0fbd...>` is OpenStep data.
            if rest.count > 1, [UInt8(ascii: "?"), UInt8(ascii: "!")].contains(rest[1]) { return .xml }
            if rest.starts(with: "<plist".utf8) { return .xml }
            return rest.count > 1 && (rest[1] >= 0x30 && rest[1] <= 0x39 || (rest[1] | 0x20 >= 0x61 && rest[1] | 0x20 <= 0x66) || isSpace(rest[1]) || rest[1] == UInt8(ascii: ">"))
                ? .openStep : .xml
        case UInt8(ascii: "["), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .json
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            // JSON literals, unless the word goes on (an unquoted OpenStep string or key).
            for word in ["true", "false", "null"] where rest.starts(with: word.utf8) {
                let after = word.utf8.count
                if after == rest.count || !isWordByte(rest[after]) {
                    // `true = 1;` is a .strings entry.
                    var j = after
                    while j < rest.count, isSpace(rest[j]) { j += 1 }
                    return j < rest.count && rest[j] == UInt8(ascii: "=") ? .openStep : .json
                }
            }
            return .openStep
        case UInt8(ascii: "{"):
            // JSON when the first key is a quoted string followed by ':'.
            var j = 1
            while j < rest.count, isSpace(rest[j]) { j += 1 }
            guard j < rest.count else { return .openStep }
            if rest[j] == UInt8(ascii: "}") { return .json }
            guard rest[j] == UInt8(ascii: "\"") else { return .openStep }
            j += 1
            while j < rest.count, rest[j] != UInt8(ascii: "\"") {
                j += rest[j] == UInt8(ascii: "\\") ? 2 : 1
            }
            j += 1
            while j < rest.count, isSpace(rest[j]) { j += 1 }
            return j < rest.count && rest[j] == UInt8(ascii: ":") ? .json : .openStep
        case UInt8(ascii: "\""):
            // A quoted root: JSON string, or a .strings entry `"key" = "value";`.
            var j = 1
            while j < rest.count, rest[j] != UInt8(ascii: "\"") {
                j += rest[j] == UInt8(ascii: "\\") ? 2 : 1
            }
            j += 1
            while j < rest.count, isSpace(rest[j]) { j += 1 }
            return j >= rest.count ? .json : .openStep
        default:
            return .openStep
        }
    }

    private static func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c == UInt8(ascii: "_")
            || c == UInt8(ascii: ".") || c == UInt8(ascii: "$") || c == UInt8(ascii: "/") || c == UInt8(ascii: ":") || c >= 0x80
    }
}
