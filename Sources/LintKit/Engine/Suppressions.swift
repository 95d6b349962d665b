import PlistTools
import PropertyList

/// `<!-- devkit:disable rule.id other.id -->` comments in an XML plist: the comment silences
/// the listed rules (all rules when none is listed) for the next entry (key and value, and
/// everything inside it); `<!-- devkit:disable-file … -->` for the whole file. A comment
/// before the root element therefore also covers the whole file.
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

    /// Finds the directives; cheap when the file has none (one substring search).
    static func scan(_ bytes: [UInt8]) -> Suppressions? {
        guard contains(bytes, directive, from: 0) != nil else { return nil }
        var comments: [Comment] = []
        var i = 0
        let open = Array("<!--".utf8), close = Array("-->".utf8)
        while let start = contains(bytes, open, from: i) {
            guard let stop = contains(bytes, close, from: start + 4) else { break }
            let body = String(decoding: bytes[(start + 4)..<stop], as: UTF8.self)
            let words = body.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "," }).map(String.init)
            if let first = words.first, first == "devkit:disable" || first == "devkit:disable-file" {
                comments.append(Comment(ruleIDs: Set(words.dropFirst()), wholeFile: first == "devkit:disable-file", end: stop + 3))
            }
            i = stop + 3
        }
        return comments.isEmpty ? nil : Suppressions(comments: comments)
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
