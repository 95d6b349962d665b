/// Limits for untrusted input: anything beyond is skipped with a warning, never trusted.
public enum CrashReportLimits {
    /// Longer lines are cut (real frame lines are a few hundred bytes; ObjC names a few KB).
    public static let maxLineLength = 16 * 1024
    public static let maxThreads = 4096
    public static let maxFramesPerThread = 8192
    public static let maxBinaryImages = 65536
    public static let maxRegisters = 256
    /// `Application Specific Information` / `asi` / `Fatal error:` lines kept.
    public static let maxInformationLines = 1024
}
