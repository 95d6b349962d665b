/// The per-thread frame cap the text readers share: a thread takes frames up to
/// `CrashReportLimits.maxFramesPerThread`; the first frame past it warns, once per thread.
struct FrameCap {
    private var warned: Set<Int> = []

    /// True when `thread` (at `position` in the report) may take one more frame.
    mutating func admits(_ thread: CrashThread, position: Int, named name: String, warn: (String) -> Void) -> Bool {
        guard thread.frames.count >= CrashReportLimits.maxFramesPerThread else { return true }
        if warned.insert(position).inserted {
            warn("\(name) has more than \(CrashReportLimits.maxFramesPerThread) frames; the rest are skipped")
        }
        return false
    }
}
