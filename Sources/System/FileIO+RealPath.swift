#if canImport(Glibc)
import Glibc
#endif

extension FileIO {
    /// `path` absolute, with every symlink, `.` and `..` resolved (`realpath`); nil when it
    /// does not exist or cannot be resolved.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The real path of the tree `root` names: the directory itself, or for a file the
    /// directory holding it (the name as given, before any symlink is followed).
    public static func realTree(_ root: String) -> String? {
        if isDirectory(root) { return realPath(root) }
        let parent = root.lastIndex(of: "/").map { String(root[..<$0]) } ?? "."
        return realPath(parent.isEmpty ? "/" : parent)
    }
}
