import CrashReport
import FrameModel
import Symbolication

/// A hand-written crash for rule examples: the crashed thread's top frames and registers,
/// the exception, and a memory table standing in for the images' files.
public struct ExampleCrash: Sendable {
    public var architecture = "arm64"
    public var exceptionType: String?
    public var signal: String?
    public var reason: String?
    public var faultAddress: UInt64?
    public var applicationSpecificInformation: [String] = []
    /// Function names of the crashed thread, frame 0 first, with an optional source position
    /// (`"level3(_:) @ main.swift:3"`).
    public var frames: [String] = []
    public var registers: [(String, UInt64)] = []
    /// Address ranges and what they hold.
    public var memory: [ExampleMemory.Region] = []

    public init(architecture: String = "arm64", exceptionType: String? = nil, signal: String? = nil, reason: String? = nil,
                faultAddress: UInt64? = nil, applicationSpecificInformation: [String] = [], frames: [String] = [],
                registers: [(String, UInt64)] = [], memory: [ExampleMemory.Region] = []) {
        self.architecture = architecture
        self.exceptionType = exceptionType
        self.signal = signal
        self.reason = reason
        self.faultAddress = faultAddress
        self.applicationSpecificInformation = applicationSpecificInformation
        self.frames = frames
        self.registers = registers
        self.memory = memory
    }

    /// The context a rule sees for this example.
    public var context: DecodingContext {
        var report = CrashReport(format: .appleText)
        report.architecture = architecture
        var exception = CrashException()
        exception.type = exceptionType
        exception.signal = signal
        exception.reason = reason
        exception.faultAddress = faultAddress
        report.exception = exception
        report.applicationSpecificInformation = applicationSpecificInformation
        var thread = CrashThread(index: 0, crashed: true)
        var resolved: [SymbolicatedCrashFrame] = []
        for (index, text) in frames.enumerated() {
            var frame = CrashFrame(index: index)
            frame.isReturnAddress = index > 0
            let parts = text.split(separator: " @ ", maxSplits: 1).map(String.init)
            frame.symbol = parts[0]
            var symbols: CrashFrameSymbols?
            if parts.count == 2 {
                let location = parts[1].split(separator: ":")
                let line = location.count > 1 ? UInt32(location[1]) ?? 0 : 0
                symbols = CrashFrameSymbols(frames: [SymbolicatedFrame(function: parts[0], file: String(location[0]), line: line, column: 0,
                                                                  isInlined: false, source: .debugInfo)],
                                       symbol: parts[0], offset: 0, verified: true)
            }
            thread.frames.append(frame)
            resolved.append(SymbolicatedCrashFrame(imageIndex: nil, address: nil, symbols: symbols))
        }
        thread.registers = registers.map { CrashRegister(name: $0.0, value: $0.1) }
        report.threads = [thread]
        report.crashedThread = 0
        let crash = SymbolicatedCrash(report: report, images: [], threads: [resolved], lastExceptionBacktrace: [])
        return DecodingContext(crash: crash, memory: ExampleMemory(regions: memory))
    }
}
