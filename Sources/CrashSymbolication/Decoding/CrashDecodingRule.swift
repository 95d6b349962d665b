import CrashReport
import FrameModel
import Symbolication

/// One register-decoding rule: a small, documented piece of knowledge about crashes ("x1
/// holds the selector in objc_msgSend"), with examples that are also its tests.
public protocol CrashDecodingRule: Sendable {
    static var description: DecodingRuleDescription { get }
    func decode(_ context: DecodingContext) -> [CrashDecoding]
}

extension CrashDecodingRule {
    public var description: DecodingRuleDescription { Self.description }
}

public struct DecodingRuleDescription: Sendable {
    /// `objc.selector`, `fault.null-dereference`, …
    public var id: String
    /// One sentence: what the rule recognises.
    public var summary: String
    /// Reports with the messages the rule must give for them (none: it must stay silent).
    public var examples: [DecodingExample]
}

/// A crash reduced to what a rule looks at, and the messages expected from the rule.
public struct DecodingExample: Sendable {
    public var crash: ExampleCrash
    public var expected: [String]

    public init(_ crash: ExampleCrash, expect expected: [String]) {
        self.crash = crash
        self.expected = expected
    }
}

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
        var resolved: [ResolvedFrame] = []
        for (index, text) in frames.enumerated() {
            var frame = CrashFrame(index: index)
            frame.isReturnAddress = index > 0
            let parts = text.split(separator: " @ ", maxSplits: 1).map(String.init)
            frame.symbol = parts[0]
            var symbols: FrameSymbols?
            if parts.count == 2 {
                let location = parts[1].split(separator: ":")
                let line = location.count > 1 ? UInt32(location[1]) ?? 0 : 0
                symbols = FrameSymbols(frames: [SymbolicatedFrame(function: parts[0], file: String(location[0]), line: line, column: 0,
                                                                  isInlined: false, source: .debugInfo)],
                                       symbol: parts[0], offset: 0, verified: true)
            }
            thread.frames.append(frame)
            resolved.append(ResolvedFrame(imageIndex: nil, address: nil, symbols: symbols))
        }
        thread.registers = registers.map { CrashRegister(name: $0.0, value: $0.1) }
        report.threads = [thread]
        report.crashedThread = 0
        let crash = SymbolicatedCrash(report: report, images: [], threads: [resolved], lastExceptionBacktrace: [])
        return DecodingContext(crash: crash, memory: ExampleMemory(regions: memory))
    }
}

/// A table of address ranges for rule examples.
public struct ExampleMemory: CrashMemory {
    public struct Region: Sendable {
        public var start: UInt64
        public var size: UInt64
        public var info: AddressInfo

        /// A region of `image` whose bytes at `start` are `string` (in `section` of `kind`).
        public static func string(_ string: String, at start: UInt64, image: String = "MyApp",
                                  section: String = "__TEXT,__objc_methname", kind: BinarySections.Kind = .selectorName) -> Region {
            Region(start: start, size: UInt64(string.utf8.count + 1),
                   info: AddressInfo(imageName: image, section: section, kind: kind, string: string))
        }

        /// A function `name` of `image` spanning `size` bytes from `start`.
        public static func function(_ name: String, at start: UInt64, size: UInt64 = 0x100, image: String = "MyApp") -> Region {
            Region(start: start, size: size, info: AddressInfo(imageName: image, section: "__TEXT,__text", kind: .code, symbol: name, offset: 0))
        }

        /// An image devkit did not find: its range is known from the log, its contents are not.
        public static func unreadImage(_ image: String, at start: UInt64, size: UInt64) -> Region {
            Region(start: start, size: size, info: AddressInfo(imageName: image, binaryAvailable: false))
        }
    }

    public var regions: [Region]

    public func describe(_ address: UInt64) -> AddressInfo? {
        guard let region = regions.first(where: { address >= $0.start && address - $0.start < $0.size }) else { return nil }
        var info = region.info
        if info.kind == .code { info.offset = address - region.start }
        if info.string != nil, address != region.start { info.string = nil }
        return info
    }
}

/// Every rule, in the order their findings are shown (the most telling first).
public enum CrashDecodingRules {
    public static let all: [any CrashDecodingRule] = [
        SwiftRuntimeTrapRule(),
        ObjCSelectorRule(),
        NullDereferenceRule(),
        FaultAddressRule(),
        PoisonPatternRule(),
        PointerBitsRule(),
        RegisterPointerRule(),
    ]
}
