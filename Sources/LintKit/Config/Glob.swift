/// A path pattern from a config file: `*` and `?` within one path component, `**` across
/// components, `[abc]` / `[a-z]` / `[!a]` sets. A pattern without `/` matches a file or
/// directory name at any depth (like .gitignore); a pattern matching a directory matches
/// everything below it.
///
/// Hand-written: libc's fnmatch has no `**`, and the two other users (include/exclude and
/// kind overrides) need the same rules.
public struct Glob: Hashable, Sendable, CustomStringConvertible {
    public let pattern: String
    private let bytes: [UInt8]
    private let anchored: Bool

    public init(_ pattern: String) {
        var p = pattern
        if p.hasPrefix("./") { p.removeFirst(2) }
        while p.hasSuffix("/") && p.count > 1 { p.removeLast() }
        self.pattern = pattern
        self.anchored = p.contains("/")
        var b = Array(p.utf8)
        if b.first == UInt8(ascii: "/") { b.removeFirst() }
        self.bytes = b
    }

    public var description: String { pattern }

    /// Whether `path` (relative, `/`-separated) or one of its parent directories matches.
    public func matches(_ path: String) -> Bool {
        let components = path.split(separator: "/").filter { $0 != "." }.map { Array($0.utf8) }
        guard !components.isEmpty else { return false }
        if !anchored {
            return components.contains { Self.match(bytes[...], $0[...]) }
        }
        var prefix: [UInt8] = []
        for (i, component) in components.enumerated() {
            if i > 0 { prefix.append(UInt8(ascii: "/")) }
            prefix += component
            if Self.match(bytes[...], prefix[...]) { return true }
        }
        return false
    }

    private static let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), question = UInt8(ascii: "?"), open = UInt8(ascii: "[")

    /// Backtracking match; recursion depth is bounded by the number of `*` in the pattern.
    private static func match(_ p: ArraySlice<UInt8>, _ s: ArraySlice<UInt8>) -> Bool {
        var p = p, s = s
        while let c = p.first {
            if c == star {
                let doubled = p.dropFirst().first == star
                var rest = p.drop(while: { $0 == star })
                if doubled {
                    // `**/` also matches no directory at all.
                    if rest.first == slash {
                        rest = rest.dropFirst()
                        if match(rest, s) { return true }
                    }
                    var t = s
                    while true {
                        if match(rest, t) { return true }
                        guard !t.isEmpty else { return false }
                        t = t.dropFirst()
                    }
                }
                var t = s
                while true {
                    if match(rest, t) { return true }
                    guard let first = t.first, first != slash else { return false }
                    t = t.dropFirst()
                }
            }
            guard let sc = s.first else { return false }
            if c == question {
                guard sc != slash else { return false }
            } else if c == open, let close = p.dropFirst(2).firstIndex(of: UInt8(ascii: "]")) {
                var set = p[(p.startIndex + 1)..<close]
                let negated = set.first == UInt8(ascii: "!") || set.first == UInt8(ascii: "^")
                if negated { set = set.dropFirst() }
                var found = false
                var i = set.startIndex
                while i < set.endIndex {
                    if i + 2 < set.endIndex, set[i + 1] == UInt8(ascii: "-") {
                        if set[i] <= sc && sc <= set[i + 2] { found = true }
                        i += 3
                    } else {
                        if set[i] == sc { found = true }
                        i += 1
                    }
                }
                guard found != negated, sc != slash else { return false }
                p = p[(close + 1)...]
                s = s.dropFirst()
                continue
            } else if c != sc {
                return false
            }
            p = p.dropFirst()
            s = s.dropFirst()
        }
        return s.isEmpty
    }
}
