#if canImport(Glibc)
import Glibc
#endif

/// The machine's processors, for sizing worker pools.
public enum Processors {
    /// Processors online now (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1 (sysconf reports
    /// -1 when it cannot tell).
    public static var online: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
