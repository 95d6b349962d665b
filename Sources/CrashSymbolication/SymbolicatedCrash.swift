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
    public var threads: [[ResolvedFrame]]
    /// Parallel to `report.lastExceptionBacktrace`.
    public var lastExceptionBacktrace: [ResolvedFrame]
    /// What the register-decoding rules said, most telling first.
    public var decodings: [CrashDecoding] = []
    /// Problems met while symbolicating (an image that could not be read, …).
    public var warnings: [String] = []

    /// The thread that crashed (or the first), with its frames.
    public var crashedThread: (thread: CrashThread, frames: [ResolvedFrame])? {
        let position = report.threads.firstIndex(where: \.crashed) ?? (report.threads.isEmpty ? nil : 0)
        return position.map { (report.threads[$0], threads[$0]) }
    }
}

/// One frame of the log, tied to its image and, when that image was found, to source.
public struct ResolvedFrame: Sendable, Equatable {
    /// Index into `report.binaryImages`; nil when no image holds the address.
    public var imageIndex: Int?
    /// The runtime address (from the log, or load address + offset).
    public var address: UInt64?
    public var symbols: FrameSymbols?

    public init(imageIndex: Int? = nil, address: UInt64? = nil, symbols: FrameSymbols? = nil) {
        self.imageIndex = imageIndex
        self.address = address
        self.symbols = symbols
    }
}

/// What an image's symbols say about one address.
public struct FrameSymbols: Sendable, Equatable {
    /// Innermost inlined function first, the function the address is in last.
    public var frames: [SymbolicatedFrame]
    /// The symbol-table name of the outermost function and the address's offset into it.
    public var symbol: String?
    public var offset: UInt64?
    /// False when the image was found without an identifier to check (address lists,
    /// sanitizer reports).
    public var verified: Bool

    /// The function the address is in (outermost frame), by DWARF or symbol table.
    public var function: String? { frames.last?.function ?? symbol }
}

/// One finding of a register-decoding rule.
public struct CrashDecoding: Sendable, Equatable, CustomStringConvertible {
    /// The rule's id (`objc.selector`, `fault.null-dereference`, …).
    public var rule: String
    /// The register it is about, if any (`x1`, `rsi`, `fault address`).
    public var register: String?
    public var value: UInt64?
    /// One line of plain words.
    public var message: String

    public init(rule: String, register: String? = nil, value: UInt64? = nil, message: String) {
        self.rule = rule
        self.register = register
        self.value = value
        self.message = message
    }

    public var description: String { message }
}
