import PlistTools
import PropertyList

/// `<!-- devkit:disable rule.id other.id -->` comments in an XML plist, and
/// `// devkit:disable …` or `/* devkit:disable … */` in an OpenStep plist or `.strings` file:
/// the comment silences the listed rules (all rules when none is listed) for the next entry
/// (key and value, and everything inside it); `devkit:disable-file …` for the whole file. A
/// comment before the root element therefore also covers the whole file. JSON has no comments:
/// its files are silenced from `.devkit.yml` (`LintConfiguration.suppressions`).
struct Suppressions: Sendable {
    struct Comment: Sendable {
        /// Empty: every rule.
        var ruleIDs: Set<String>
        var wholeFile: Bool
        /// Offset just after `-->`.
        var end: Int

        func covers(_ ruleID: String) -> Bool { ruleIDs.isEmpty || ruleIDs.contains(ruleID) }
    }

    var comments: [Comment]

    private static let directive = Array("devkit:disable".utf8)

    /// Finds the directives in a file of `format` (XML or OpenStep; other formats have no
    /// comments); cheap when the file has none (one substring search).
    static func scan(_ bytes: [UInt8], format: PlistFormat) -> Suppressions? {
        guard format == .xml || format == .openStep, contains(bytes, directive, from: 0) != nil else { return nil }
        var comments: [Comment] = []
        let bodies = format == .xml ? xmlComments(bytes) : openStepComments(bytes)
        for (body, end) in bodies {
            let text = String(decoding: bytes[body], as: UTF8.self)
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "," }).map(String.init)
            if let first = words.first, first == "devkit:disable" || first == "devkit:disable-file" {
                comments.append(Comment(ruleIDs: Set(words.dropFirst()), wholeFile: first == "devkit:disable-file", end: end))
            }
        }
        return comments.isEmpty ? nil : Suppressions(comments: comments)
    }

    /// `<!-- … -->`: each comment's text and the offset just after it.
    private static func xmlComments(_ bytes: [UInt8]) -> [(body: Range<Int>, end: Int)] {
        var out: [(Range<Int>, Int)] = []
        var i = 0
        let open = Array("<!--".utf8), close = Array("-->".utf8)
        while let start = contains(bytes, open, from: i) {
            guard let stop = contains(bytes, close, from: start + 4) else { break }
            out.append(((start + 4)..<stop, stop + 3))
            i = stop + 3
        }
        return out
    }

    /// `// …` (to the end of the line) and `/* … */` outside quoted strings (`"…"` or `'…'`,
    /// with backslash escapes, as `OpenStepReader` reads them), so a value that spells a
    /// directive is not one. An unterminated comment or string ends the scan: the reader has
    /// already refused such a file.
    private static func openStepComments(_ bytes: [UInt8]) -> [(body: Range<Int>, end: Int)] {
        var out: [(Range<Int>, Int)] = []
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\")
        let n = bytes.count
        var i = 0
        while i < n {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                i += 1
                while i < n, bytes[i] != c { i += bytes[i] == backslash ? 2 : 1 }
                i += 1
            } else if c == slash, i + 1 < n, bytes[i + 1] == slash {
                var stop = i + 2
                while stop < n, bytes[stop] != 0x0A, bytes[stop] != 0x0D { stop += 1 }
                out.append(((i + 2)..<stop, stop))
                i = stop
            } else if c == slash, i + 1 < n, bytes[i + 1] == star {
                guard let stop = contains(bytes, [star, slash], from: i + 2) else { break }
                out.append(((i + 2)..<stop, stop + 2))
                i = stop + 2
            } else {
                i += 1
            }
        }
        return out
    }

    /// What one comment silences.
    enum Scope: Sendable {
        case file
        /// The entry at this key path and everything inside it.
        case node([String])
        /// A comment after the last element silences nothing.
        case nothing
    }

    /// The comments' scopes resolved against the file's nodes.
    func scopes(in map: PlistSourceMap?) -> [(comment: Comment, scope: Scope)] {
        comments.map { comment in
            if comment.wholeFile { return (comment, .file) }
            guard let path = map?.firstNode(startingAtOrAfter: comment.end) else { return (comment, .nothing) }
            return (comment, .node(path))
        }
    }

    /// Whether a finding of `ruleID` about `path` (nil: no path, e.g. a parse error) is silenced.
    static func silences(_ scopes: [(comment: Comment, scope: Scope)], ruleID: String, path: [String]?) -> Bool {
        scopes.contains { comment, scope in
            guard comment.covers(ruleID) else { return false }
            switch scope {
            case .file: return true
            case .node(let node): return path.map { $0.starts(with: node) } ?? false
            case .nothing: return false
            }
        }
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var i = from
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == first {
                var j = 1
                while j < needle.count, bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
