/// Lexical path handling (no file system access).
public enum Path {
    /// Removes `.` components, empty components and `x/..` pairs from an absolute path.
    public static func normalize(_ path: String) -> String {
        var out: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == ".." { if !out.isEmpty { out.removeLast() }; continue }
            out.append(component)
        }
        return "/" + out.joined(separator: "/")
    }
}
