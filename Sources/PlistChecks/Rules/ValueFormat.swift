import LintKit
import PropertyList

/// Small value tests several rules share.
enum ValueFormat {
    /// One to `maxComponents` period-separated non-negative integers (`1`, `1.4`, `1.4.2`).
    static func isDottedIntegers(_ text: String, maxComponents: Int = 3) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...maxComponents).contains(parts.count) else { return false }
        return parts.allSatisfy { part in !part.isEmpty && part.utf8.count <= 18 && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }

    /// Whether the text holds an Xcode build-setting reference (`$(NAME)`, `${NAME}`), which
    /// Xcode expands when it builds; source files may have them, built products must not.
    static func hasBuildVariable(_ text: String) -> Bool {
        // A byte scan: String.contains(String) goes through the regex engine's searcher.
        var previousWasDollar = false
        for byte in text.utf8 {
            if previousWasDollar, byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{") { return true }
            previousWasDollar = byte == UInt8(ascii: "$")
        }
        return false
    }

    /// The first of `words` (lowercase ASCII) that occurs in `text`, ignoring ASCII case.
    /// A byte search: String.contains(String) goes through the regex engine's searcher, which
    /// is the largest cost of a lint run over many small files when used here.
    static func firstContained(_ words: [String], in text: String) -> String? {
        let haystack = text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return words.first { word in
            let needle = Array(word.utf8)
            guard let first = needle.first, haystack.count >= needle.count else { return false }
            for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            }
            return false
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The text without leading and trailing spaces, tabs and newlines.
    static func trimmed(_ text: String) -> String {
        let space: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = text.firstIndex(where: { !space($0) }), let end = text.lastIndex(where: { !space($0) }) else { return "" }
        return String(text[start...end])
    }

    /// `https://host/…` with a non-empty host.
    static func isHTTPSURL(_ text: String) -> Bool {
        guard text.hasPrefix("https://") else { return false }
        let rest = text.dropFirst("https://".count)
        guard let host = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first else { return false }
        return !host.isEmpty && !text.contains(" ")
    }
}
