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

    public init(format: Format) { self.format = format }
}

public struct CrashException: Hashable, Sendable {
    /// `EXC_BAD_ACCESS`, `EXC_CRASH`, …
    public var type: String?
    /// `SIGSEGV`, `SIGABRT`, …
    public var signal: String?
    /// The codes as written (`0x0000000000000001, 0x0000000000000000`).
    public var codes: String?
    /// `KERN_INVALID_ADDRESS at 0x0`, `Exception Reason:` or the termination reason.
    public var reason: String?
    /// The address whose access faulted (`KERN_INVALID_ADDRESS at 0x18`, a core's
    /// `siginfo.si_addr`, Swift's `Bad pointer dereference at 0x…`), when the report says.
    public var faultAddress: UInt64?

    public init() {}
}

public struct CrashThread: Hashable, Sendable {
    public var index: Int
    public var name: String?
    public var crashed: Bool
    public var frames: [CrashFrame] = []
    /// Register name and value, in the order the report lists them.
    public var registers: [CrashRegister] = []

    public init(index: Int, name: String? = nil, crashed: Bool = false) {
        self.index = index
        self.name = name
        self.crashed = crashed
    }
}

public struct CrashFrame: Hashable, Sendable {
    public var index: Int
    public var imageName: String?
    /// The runtime address, when the log gives it or it follows from image base + offset.
    public var address: UInt64?
    /// Offset from the image's load address.
    public var imageOffset: UInt64?
    /// The symbol as written (may be absent, or a placeholder such as `0x104544000`).
    public var symbol: String?
    /// Offset into `symbol` (`+ 8`).
    public var symbolOffset: UInt64?
    /// Source position as written (`main.swift:12`), when the log is already symbolicated.
    public var sourceLocation: String?
    /// True when `address` is a return address (every frame but a thread's first, unless the
    /// log says otherwise): symbolication then looks up `address - 1`, the call instruction,
    /// as lldb, the Swift backtracer and eu-stack do.
    public var isReturnAddress = false
    /// The 1-based line of the log the frame was read from (text formats), so output in the
    /// log's own format can fill in that line.
    public var line: Int?

    public init(index: Int) { self.index = index }
}

public struct CrashRegister: Hashable, Sendable {
    public var name: String
    public var value: UInt64

    public init(name: String, value: UInt64) {
        self.name = name
        self.value = value
    }
}

public struct CrashBinaryImage: Hashable, Sendable {
    public var name: String
    /// The Mach-O UUID or ELF build-id as written, lower-cased, without dashes.
    public var uuid: String?
    public var loadAddress: UInt64?
    /// The image's last address (inclusive), as Apple's `0x1000 - 0x1fff` lines write it.
    public var endAddress: UInt64?
    public var arch: String?
    public var path: String?

    public init(name: String) { self.name = name }
}

/// Something the parser skipped or could not read, with the 1-based line it is on
/// (for `.ips`, line 1 is the header and 2 the body's start).
public struct CrashDiagnostic: Hashable, Sendable, CustomStringConvertible {
    public var line: Int?
    public var message: String

    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// A report the parser could not read at all.
public struct CrashReportError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int?
    public var message: String

    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// A parsed report and what was skipped on the way.
public struct CrashReportDocument: Hashable, Sendable {
    public var report: CrashReport
    public var warnings: [CrashDiagnostic]

    public init(report: CrashReport, warnings: [CrashDiagnostic]) {
        self.report = report
        self.warnings = warnings
    }
}

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
