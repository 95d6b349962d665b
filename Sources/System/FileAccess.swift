#if canImport(Glibc)
import Glibc
#endif

/// What the process may do with a path, by access(2): for choosing among candidate files
/// before opening one.
public enum FileAccess {
    /// True when `path` exists (symbolic links followed) and the process may read it.
    public static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }
}
