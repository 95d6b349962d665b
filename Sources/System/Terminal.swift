#if canImport(Glibc)
import Glibc
#endif

/// What the standard streams are connected to.
public enum Terminal {
    /// True when the descriptor (0, 1, 2) is a terminal.
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) != 0 }

    /// True when standard output is a terminal that wants colour (NO_COLOR unset, TERM not dumb).
    public static var standardOutputWantsColor: Bool {
        guard isTerminal(1) else { return false }
        if Environment.value("NO_COLOR") != nil { return false }
        return Environment.value("TERM") != "dumb"
    }
}
