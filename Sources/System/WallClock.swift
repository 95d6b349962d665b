#if canImport(Glibc)
import Glibc
#endif

/// The calendar time (`time(2)`), for what is measured against dates (expiry); durations use
/// `MonotonicClock`.
public enum WallClock {
    /// Whole seconds since 1970-01-01 00:00:00 UTC.
    public static func secondsSince1970() -> Int { Int(time(nil)) }
}
