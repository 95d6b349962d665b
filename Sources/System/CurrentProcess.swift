#if canImport(Glibc)
import Glibc
#endif

/// The running devkit process itself.
public enum CurrentProcess {
    /// Ends the process with `status` (stdio buffers flushed, atexit handlers run).
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// This process's id (to name files only this process writes).
    public static var id: Int32 { getpid() }
}
