import System

/// The cheap part of .gitignore, for trees outside a git work tree (inside one, `LintRun`
/// asks git through `GitWorkTreeFiles`): the patterns of the `.gitignore` files in the walk's
/// root and in the directories above it, each relative to its own directory. Negations (`!`)
/// and nested `.gitignore` files further down are not read; patterns are matched with `Glob`
/// (a directory pattern hides everything below it).
public struct GitIgnore: Sendable {
    struct PatternSet: Sendable {
        /// Absolute directory the patterns are relative to.
        var directory: String
        var globs: [Glob]
    }

    var sets: [PatternSet]

    public init() { sets = [] }

    /// The `.gitignore` of `directory` (absolute) and of each directory above it up to the
    /// repository root (the first holding `.git`), or up to `/` outside a repository.
    public static func load(from directory: String) -> GitIgnore {
        var ignore = GitIgnore()
        var dir = directory
        while true {
            if let bytes = try? FileIO.read(dir + "/.gitignore", kind: .configuration) {
                ignore.add(String(decoding: bytes, as: UTF8.self), directory: dir)
            }
            if DirectoryWalk.type(of: dir + "/.git") != .missing || dir == "/" { break }
            dir = Path.normalize(dir + "/..")
        }
        return ignore
    }

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

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        guard let start = firstIndex(where: { !chars.contains($0) }), let end = lastIndex(where: { !chars.contains($0) }) else { return "" }
        return String(self[start...end])
    }
}
