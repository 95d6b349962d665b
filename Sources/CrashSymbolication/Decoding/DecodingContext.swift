import CrashReport
import Symbolication

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
        if text.containsBytes("arm64e") { return .arm64e }
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
    public func describe(_ frame: SymbolicatedCrashFrame, _ logged: CrashFrame) -> String {
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
