#if canImport(Glibc)
import Glibc
#endif

/// The machine's processors, for sizing worker pools.
public enum Processors {
    /// Processors online now (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1 (sysconf reports
    /// -1 when it cannot tell).
    public static var online: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The 1-minute load average (`getloadavg`): processes running or waiting for a
    /// processor, averaged; nil when it cannot be read.
    public static var loadAverage: Double? {
        var load = 0.0
        guard getloadavg(&load, 1) == 1 else { return nil }
        return load
    }

    /// Whether a second thread of the caller's would likely get a processor of its own: more
    /// than one online, and the 1-minute load average (as GNU make's `--load-average` reads
    /// it) leaving a processor and a half idle, one for each thread and some room for the
    /// rest of the machine. True when the load cannot be read. For work split in two stages
    /// that hand every item across: on a busy machine the second thread waits for a time
    /// slice, and the handing over costs without saving anything.
    public static var hasIdleProcessor: Bool {
        let online = self.online
        guard online > 1 else { return false }
        guard let load = loadAverage else { return true }
        return load <= Double(online) - 1.5
    }
}
