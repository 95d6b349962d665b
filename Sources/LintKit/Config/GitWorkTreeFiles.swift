import System

/// The files git shows in a directory of a work tree, which is git's own answer to "is this
/// ignored?": tracked files, and untracked ones that no ignore source excludes — `.gitignore`
/// files at every level with their negations (`!`), `.git/info/exclude` and
/// `core.excludesFile`. From one `git ls-files -z --cached --others --exclude-standard` per
/// walked directory, so devkit never re-implements git's matching inside a work tree.
/// A tracked file is not ignored even when a pattern matches it, as in git.
///
/// `GitIgnore`, the hand-written matcher, stays for trees outside a work tree (or without
/// git installed).
public struct GitWorkTreeFiles: Sendable {
    /// Absolute, normalised directory git listed; paths below are relative to it.
    let root: String
    /// Listed paths (files; a submodule or an untracked nested repository is listed as its
    /// directory, and everything under it counts as listed).
    let listed: Set<String>
    /// Every directory that holds a listed path, at any depth ("" is the root).
    let directories: Set<String>

    /// From `git ls-files -z` output (NUL-separated paths relative to `root`, absolute).
    public init(root: String, listing: [UInt8]) {
        self.root = root
        var listed: Set<String> = []
        var directories: Set<String> = [""]
        for entry in listing.split(separator: 0) {
            var path = String(decoding: entry, as: UTF8.self)
            // An untracked nested repository is listed as `dir/`.
            while path.hasSuffix("/") { path.removeLast() }
            guard !path.isEmpty else { continue }
            listed.insert(path)
            var parent = path[...]
            while let slash = parent.lastIndex(of: "/") {
                parent = parent[..<slash]
                guard directories.insert(String(parent)).inserted else { break }
            }
        }
        self.listed = listed
        self.directories = directories
    }

    /// Asks git about `directory` (absolute). Nil when it is not inside a work tree (no `.git`
    /// in it or above it: git is not even started, so trees outside a repository pay nothing),
    /// or when git is missing or fails; the caller then falls back to `GitIgnore`.
    public static func list(in directory: String) -> GitWorkTreeFiles? {
        let root = Path.normalize(directory)
        guard isInsideRepository(root) else { return nil }
        guard let output = try? ChildProcess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                                 environment: gitEnvironment()),
              output.termination == .exited(0) else { return nil }
        return GitWorkTreeFiles(root: root, listing: output.standardOutput)
    }

    /// devkit's environment without what would point git at another repository than the one
    /// found from the directory: a git hook may run devkit with `GIT_DIR` (with which git
    /// takes the current directory, here the walked one, as the top of the work tree and
    /// lists paths relative to the wrong place), `GIT_WORK_TREE`, `GIT_COMMON_DIR`, or a
    /// relative `GIT_INDEX_FILE` (meant for the hook's directory, not `-C`'s).
    static func gitEnvironment() -> [String] {
        Environment.entries().filter(keeps)
    }

    /// Whether `gitEnvironment` passes the `NAME=value` entry on.
    public static func keeps(_ entry: String) -> Bool {
        let name = entry.split(separator: "=", maxSplits: 1).first.map(String.init) ?? entry
        switch name {
        case "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR": return false
        case "GIT_INDEX_FILE": return entry.dropFirst("GIT_INDEX_FILE=".count).hasPrefix("/")
        default: return true
        }
    }

    /// A `.git` (directory, or the file of a linked work tree or submodule) in `directory` or above.
    static func isInsideRepository(_ directory: String) -> Bool {
        var dir = directory
        while true {
            if DirectoryWalk.type(of: dir == "/" ? "/.git" : dir + "/.git") != .missing { return true }
            if dir == "/" { return false }
            dir = Path.normalize(dir + "/..")
        }
    }

    /// Whether git would not show `absolutePath` (a file or a directory): neither listed nor
    /// holding a listed path nor inside a listed directory. Paths outside `root` are not
    /// judged (false).
    public func ignores(_ absolutePath: String) -> Bool {
        let path = Path.normalize(absolutePath)
        let relative: String
        if path == root {
            relative = ""
        } else {
            let prefix = root.hasSuffix("/") ? root : root + "/"
            guard path.hasPrefix(prefix) else { return false }
            relative = String(path.dropFirst(prefix.count))
        }
        if listed.contains(relative) || directories.contains(relative) { return false }
        // Inside a listed directory (a submodule, a nested repository)?
        var parent = relative[...]
        while let slash = parent.lastIndex(of: "/") {
            parent = parent[..<slash]
            if listed.contains(String(parent)) { return false }
        }
        return true
    }
}
