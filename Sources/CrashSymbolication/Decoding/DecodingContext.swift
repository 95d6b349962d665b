import CrashReport
import Symbolication

/// What an address of the crashed process is, as far as the report and the images devkit
/// found can tell (a crash log carries no memory: only the images' files are readable).
public struct AddressInfo: Sendable, Equatable {
    /// The image whose range holds the address.
    public var imageName: String
    /// The image's section (`__TEXT,__objc_methname`, `.rodata`), when its binary was found.
    public var section: String?
    public var kind: BinarySections.Kind?
    /// The function (or data symbol) holding the address, and the offset into it.
    public var symbol: String?
    public var offset: UInt64?
    /// Source position of a code address, when DWARF has it.
    public var location: String?
    /// The C string at the address, for string and constant sections.
    public var string: String?
    /// False when the image's binary could not be read, so nothing more is known.
    public var binaryAvailable: Bool

    public init(imageName: String, section: String? = nil, kind: BinarySections.Kind? = nil, symbol: String? = nil,
                offset: UInt64? = nil, location: String? = nil, string: String? = nil, binaryAvailable: Bool = true) {
        self.imageName = imageName
        self.section = section
        self.kind = kind
        self.symbol = symbol
        self.offset = offset
        self.location = location
        self.string = string
        self.binaryAvailable = binaryAvailable
    }
}

/// Answers "what is at this address" for the decoding rules. The symbolicator's answer comes
/// from the images' files; rule examples give a table instead.
public protocol CrashMemory: Sendable {
    /// nil: the address is in no image of the report.
    func describe(_ address: UInt64) -> AddressInfo?
}

/// What a rule sees: the symbolicated report and its memory.
public struct DecodingContext: Sendable {
    public var crash: SymbolicatedCrash
    public var memory: any CrashMemory

    public init(crash: SymbolicatedCrash, memory: any CrashMemory) {
        self.crash = crash
        self.memory = memory
    }

    public var report: CrashReport { crash.report }

    /// The crashed thread's registers, by name.
    public var registers: [CrashRegister] { crash.crashedThread?.thread.registers ?? [] }

    public func register(_ name: String) -> UInt64? { registers.first { $0.name == name }?.value }

    /// The calling convention's family, from the report's architecture or, failing that, the
    /// register names.
    public var architecture: CPUArchitecture {
        let text = (report.architecture ?? report.binaryImages.first?.arch ?? "").lowercased()
        if text.contains("arm64e") { return .arm64e }
        if text.hasPrefix("arm-64") || text.hasPrefix("arm64") || text.hasPrefix("aarch64") { return .arm64 }
        if text.hasPrefix("x86-64") || text.hasPrefix("x86_64") || text.hasPrefix("amd64") { return .x86_64 }
        if text.hasPrefix("arm") { return .arm }
        if text.hasPrefix("x86") || text.hasPrefix("i386") || text.hasPrefix("i686") { return .i386 }
        let names = Set(registers.map(\.name))
        if names.contains("x1") { return .arm64 }
        if names.contains("rsi") { return .x86_64 }
        if names.contains("r1") { return .arm }
        if names.contains("esi") { return .i386 }
        return .unknown
    }

    /// Name of the crashed thread's frame 0 function: symbolicated, else as the log wrote it.
    public var topFunction: String? {
        guard let (thread, frames) = crash.crashedThread, let first = thread.frames.first else { return nil }
        return frames.first?.symbols?.function ?? first.symbol
    }

    /// The exception's words together (type, signal, reason, application-specific lines),
    /// for rules that look for a phrase wherever the format put it.
    public var exceptionText: String {
        var parts: [String] = []
        if let exception = report.exception {
            parts += [exception.type, exception.signal, exception.codes, exception.reason].compactMap { $0 }
        }
        parts += report.applicationSpecificInformation
        return parts.joined(separator: "\n")
    }

    /// The frame's function name and source position as one phrase: `level3(_:) at
    /// main.swift:3:13`, the innermost inlined function first (`field at crashy.c:11:12
    /// (inlined into load_model)`).
    public func describe(_ frame: ResolvedFrame, _ logged: CrashFrame) -> String {
        let fallback = frame.symbols?.function ?? logged.symbol ?? frame.address.map(FrameText.hex) ?? "?"
        guard let symbols = frame.symbols, let innermost = symbols.frames.first else {
            return logged.sourceLocation.map { "\(fallback) at \($0)" } ?? fallback
        }
        var text = innermost.function ?? fallback
        if let file = innermost.file, innermost.line > 0 {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            text += " at \(name):\(innermost.line)\(innermost.column > 0 ? ":\(innermost.column)" : "")"
        }
        if symbols.frames.count > 1, let outer = symbols.function { text += " (inlined into \(outer))" }
        return text
    }
}

/// The calling-convention families the rules know (which register holds what).
public enum CPUArchitecture: String, Sendable {
    case arm64, arm64e, x86_64, arm, i386, unknown
}

/// `ReportMemory`: addresses described from the found images' files.
///
/// `@unchecked Sendable`: it holds the symbolicator, whose caches are plain dictionaries; a
/// `ReportMemory` lives only inside one `CrashSymbolicator.symbolicate` call on one thread
/// (the rules run there), so nothing shares it.
struct ReportMemory: CrashMemory, @unchecked Sendable {
    let report: CrashReport
    let images: [ImageResolution]
    let ranges: BinaryImageMap
    let symbolicator: CrashSymbolicator

    func describe(_ address: UInt64) -> AddressInfo? {
        guard let index = ranges.image(containing: address) else { return nil }
        let image = report.binaryImages[index]
        var info = AddressInfo(imageName: image.name, binaryAvailable: false)
        let resolution = images[index]
        guard resolution.status == .found, let base = image.loadAddress else { return info }
        var fileAddress: UInt64?
        if let path = resolution.symbolsPath, let symbolizer = try? symbolicator.session.image(at: path, architecture: resolution.architecture) {
            let converted = symbolizer.fileAddress(runtimeAddress: address, loadAddress: base)
            fileAddress = converted
            if let symbol = symbolizer.symbol(at: converted) {
                info.symbol = symbol.name
                info.offset = converted &- symbol.start
            }
            if let frame = try? symbolizer.frames(at: converted).first, let file = frame.file, frame.line > 0 {
                info.location = "\(file.split(separator: "/").last.map(String.init) ?? file):\(frame.line)"
            }
        }
        // The binary's sections are addressed by file address, which takes the symbolizer's
        // image base; without it (the symbols could not be read) nothing more is known.
        if let converted = fileAddress, let path = resolution.binaryPath,
           let sections = symbolicator.binarySections(path: path, architecture: resolution.architecture) {
            info.binaryAvailable = true
            if let section = sections.section(containing: converted) {
                info.section = section.name
                info.kind = section.kind
                if section.kind == .cString || section.kind == .selectorName || section.kind == .readOnlyData {
                    info.string = sections.cString(at: converted)
                }
            }
        }
        return info
    }
}
