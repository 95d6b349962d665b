import CrashReport
import FrameModel
import Symbolication

/// A crash report with its frames symbolicated, its images accounted for and its registers
/// decoded: what every output format (`same`, `json`, `summary`) renders.
public struct SymbolicatedCrash: Sendable {
    public var report: CrashReport
    /// Parallel to `report.binaryImages`.
    public var images: [ImageResolution]
    /// Parallel to `report.threads[i].frames`.
    public var threads: [[SymbolicatedCrashFrame]]
    /// Parallel to `report.lastExceptionBacktrace`.
    public var lastExceptionBacktrace: [SymbolicatedCrashFrame]
    /// What the register-decoding rules said, most telling first.
    public var decodings: [CrashDecoding] = []
    /// Problems met while symbolicating (an image that could not be read, …).
    public var warnings: [String] = []

    /// The thread that crashed (or the first), with its frames.
    public var crashedThread: (thread: CrashThread, frames: [SymbolicatedCrashFrame])? {
        let position = report.threads.firstIndex(where: \.crashed) ?? (report.threads.isEmpty ? nil : 0)
        return position.map { (report.threads[$0], threads[$0]) }
    }
}
