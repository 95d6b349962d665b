/// The cheap part of .gitignore: the patterns of the `.gitignore` files in the walk's root and
/// in the repository root above it, each relative to its own directory. Negations (`!`) and
/// nested `.gitignore` files further down are not read; patterns are matched with `Glob`
/// (a directory pattern hides everything below it).
public struct GitIgnore: Sendable {
    struct PatternSet: Sendable {
        /// Absolute directory the patterns are relative to.
        var directory: String
        var globs: [Glob]
    }

    var sets: [PatternSet]

    public init() { sets = [] }

    /// Adds a `.gitignore` file's text, relative to `directory` (absolute).
    public mutating func add(_ text: String, directory: String) {
        let globs = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).compactMap { raw -> Glob? in
            let line = raw.trimmingCharacters(in: " \t")
            guard !line.isEmpty, !line.hasPrefix("#"), !line.hasPrefix("!") else { return nil }
            return Glob(line)
        }
        if !globs.isEmpty { sets.append(PatternSet(directory: directory, globs: globs)) }
    }

    /// True when no pattern was read.
    public var isEmpty: Bool { sets.isEmpty }

    /// Whether the absolute path is ignored.
    public func ignores(_ absolutePath: String) -> Bool {
        sets.contains { set in
            let prefix = set.directory.hasSuffix("/") ? set.directory : set.directory + "/"
            guard absolutePath.hasPrefix(prefix) else { return false }
            let relative = String(absolutePath.dropFirst(prefix.count))
            return set.globs.contains { $0.matches(relative) }
        }
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        guard let start = firstIndex(where: { !chars.contains($0) }), let end = lastIndex(where: { !chars.contains($0) }) else { return "" }
        return String(self[start...end])
    }
}
