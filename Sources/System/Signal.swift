#if canImport(Glibc)
import Glibc
#endif

/// Signal numbers by readable names, for code that does not import the C library.
public enum Signal {
    /// `SIGHUP`: the terminal went away.
    public static let hangup = SIGHUP
    /// `SIGINT`: Ctrl-C.
    public static let interrupt = SIGINT
    /// `SIGQUIT`: Ctrl-\.
    public static let quit = SIGQUIT
    /// `SIGTERM`: asked to end.
    public static let terminate = SIGTERM
    /// `SIGUSR1`.
    public static let user1 = SIGUSR1
    /// `SIGUSR2`.
    public static let user2 = SIGUSR2
    /// `SIGWINCH`: the terminal's size changed.
    public static let windowChanged = SIGWINCH
    /// `SIGCONT`: continue after a stop.
    public static let `continue` = SIGCONT
    /// `SIGKILL`: ended at once; the one fatal signal a program cannot catch.
    public static let kill = SIGKILL
    /// `SIGCHLD`: a child stopped or ended.
    public static let childEnded = SIGCHLD
}
