/// A crash log read into one model, whichever format it came in (Apple's legacy `.crash`
/// text, `.ips` JSON, a Swift runtime backtrace, a sanitizer report, a plain address list,
/// an ELF core dump). Frames are kept as the log wrote them: nothing here symbolicates.
public struct CrashReport: Hashable, Sendable {
    public enum Format: String, Hashable, Sendable {
        /// Apple's legacy text report (`Process:`, `Thread 0 Crashed:`, `Binary Images:`).
        case appleText = "apple-text"
        /// Apple's `.ips`: a one-line JSON header, then a JSON body.
        case ips
        /// The Swift runtime's backtrace on Linux (`SWIFT_BACKTRACE`), text or `format=json`.
        case swiftBacktrace = "swift-backtrace"
        /// An AddressSanitizer / ThreadSanitizer / UBSan report (`#0 0x… in f (bin+0x…)`).
        case sanitizer
        /// Plain addresses, one per line; the image is given on the command line.
        case addressList = "address-list"
        /// An ELF core file, read through libdwfl.
        case coreDump = "core-dump"
        /// MetricKit's JSON: an `MXDiagnosticPayload`, one diagnostic, or a `callStackTree` alone.
        case metricKit = "metrickit"
        /// A KSCrash JSON report (`crash`, `binary_images`, `system`).
        case kscrash
    }

    public var format: Format
    public var process: String?
    public var processID: Int64?
    public var path: String?
    public var osVersion: String?
    /// `Code Type` (text) or `cpuType` (ips), as written.
    public var architecture: String?
    public var exception: CrashException?
    /// The index of the thread that crashed, when the report says.
    public var crashedThread: Int?
    public var threads: [CrashThread] = []
    public var binaryImages: [CrashBinaryImage] = []
    /// `Last Exception Backtrace` (text: frame list or parenthesised addresses; ips:
    /// `lastExceptionBacktrace`): where an uncaught Objective-C exception was thrown.
    public var lastExceptionBacktrace: [CrashFrame] = []
    /// `Application Specific Information` (text) or `asi` (ips), one entry a line: the
    /// `*** Terminating app due to uncaught exception …` and `Fatal error: …` messages live here.
    public var applicationSpecificInformation: [String] = []
    /// What the report records when its format carries several kinds (MetricKit: a crash, a
    /// hang, a CPU or disk-write exception), e.g. `MetricKit hang diagnostic (hang duration 3.2 sec)`.
    public var kind: String?
    /// `Termination Reason` (text), `termination` (ips), `terminationReason` (MetricKit), as
    /// written: `Namespace SPRINGBOARD, Code 0x8badf00d`. `TerminationExplanation` reads it.
    public var terminationReason: String?
    /// Facts the format gives beyond the fields above, one `name: value` a line (MetricKit's
    /// device type and app version, KSCrash's bundle identifier), for the summary.
    public var facts: [String] = []
    /// The app's version as the report gives it, short version and build: `1.0 (7)`
    /// (`.crash` `Version:`, `.ips` `app_version`/`build_version` or `bundleInfo`, MetricKit
    /// `appVersion`/`appBuildVersion`, KSCrash `CFBundleShortVersionString`/`CFBundleVersion`).
    /// `symbolicate --group` lists the versions each crash was seen in.
    public var appVersion: String?
    /// When the crash happened, as written (`.crash` `Date/Time:`, `.ips` `timestamp` or
    /// `captureTime`, KSCrash `report.timestamp`, a Swift JSON backtrace's `timestamp`, a
    /// MetricKit payload's `timeStampBegin`); `CrashTimestamp` reads it.
    public var timestamp: String?

    public init(format: Format) { self.format = format }
}
