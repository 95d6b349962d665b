#if canImport(Glibc)
import Glibc
#endif

/// Seconds on CLOCK_MONOTONIC: for measuring durations (progress, --stats), never wall time.
public enum MonotonicClock {
    /// Seconds since an arbitrary fixed point; only differences mean anything.
    public static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
