import CrashReport

/// Names the Swift runtime error behind a trap, in one line, with the user frame that
/// caused it.
///
/// Triggers on a trap (SIGTRAP, SIGILL, `EXC_BREAKPOINT`, `EXC_BAD_INSTRUCTION`) whose
/// message (`Fatal error: …` in the application-specific information or the log's text) or
/// frames (`_assertionFailure`, `swift_*`, the compiler's `Swift runtime failure: …` inlined
/// frame) show the Swift runtime stopped the program on purpose. The user frame is the
/// first frame outside the Swift runtime and standard library.
public struct SwiftRuntimeTrapRule: CrashDecodingRule {
    public init() {}

    public static let description = DecodingRuleDescription(
        id: "swift.runtime-trap",
        summary: "A Swift runtime trap (force-unwrap of nil, index out of range, overflow, fatalError) in plain words, with the user frame.",
        examples: [
            DecodingExample(ExampleCrash(
                architecture: "x86_64", signal: "SIGILL",
                applicationSpecificInformation: ["Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range"],
                frames: ["closure #1 in closure #1 in _assertionFailure(_:_:file:line:flags:)", "_assertionFailure(_:_:file:line:flags:)",
                         "specialized Array.subscript.getter", "main @ /src/CrashDemo/main.swift:19"]),
                expect: ["Swift runtime error: Fatal error: Index out of range, in main at main.swift:19"]),
            DecodingExample(ExampleCrash(
                exceptionType: "EXC_BREAKPOINT", signal: "SIGTRAP",
                frames: ["Swift runtime failure: arithmetic overflow", "main @ main.swift:15"]),
                expect: ["Swift runtime error: arithmetic overflow, in main at main.swift:15"]),
            DecodingExample(ExampleCrash(
                exceptionType: "EXC_BREAKPOINT", signal: "SIGTRAP",
                frames: ["Swift._assertionFailure(_: Swift.StaticString, _: Swift.StaticString, file: Swift.StaticString, line: Swift.UInt, flags: Swift.UInt32) -> Swift.Never",
                         "ViewController.load() @ ViewController.swift:42"]),
                expect: ["Swift runtime error (the message went to standard error, not into this report), in ViewController.load() at ViewController.swift:42"]),
            // A segmentation fault is not a Swift trap, even with Swift frames.
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", faultAddress: 0,
                                         frames: ["swift_retain", "main"]), expect: []),
        ])

    public func decode(_ context: DecodingContext) -> [CrashDecoding] {
        let text = context.exceptionText
        let isTrap = ["SIGTRAP", "SIGILL", "EXC_BREAKPOINT", "EXC_BAD_INSTRUCTION", "Illegal instruction", "System trap"].contains { text.containsBytes($0) }
        guard isTrap || text.containsBytes("Fatal error") else { return [] }
        guard let (thread, frames) = context.crash.crashedThread else { return [] }
        // Every function name on the crashed thread, inlined frames included, innermost first.
        var names: [(name: String, position: Int)] = []
        for (position, frame) in frames.enumerated() {
            if let symbols = frame.symbols {
                names += symbols.frames.compactMap { $0.function.map { ($0, position) } }
            } else if let symbol = thread.frames[position].symbol {
                names.append((symbol, position))
            }
        }
        var message = Self.fatalErrorMessage(in: text)
        if message == nil, let failure = names.first(where: { $0.name.hasPrefix("Swift runtime failure: ") }) {
            message = String(failure.name.dropFirst("Swift runtime failure: ".count))
        }
        let inRuntime = names.contains { Self.isRuntime($0.name) }
        guard message != nil || inRuntime else { return [] }
        // The first frame outside the Swift runtime: by its functions' names, and by its image
        // (libswiftCore, libswiftSwiftOnoneSupport, …: specialisations there carry any name).
        let user = frames.indices.first { position in
            let own = names.filter { $0.position == position }.map(\.name)
            let image = frames[position].imageIndex.map { context.report.binaryImages[$0].name } ?? thread.frames[position].imageName ?? ""
            return !own.isEmpty && !own.contains(where: Self.isRuntime) && !Self.isRuntimeImage(image)
        }
        var words = message.map { "Swift runtime error: \($0)" } ?? "Swift runtime error (the message went to standard error, not into this report)"
        if let user { words += ", in " + context.describe(frames[user], thread.frames[user]) }
        return [CrashDecoding(rule: Self.description.id, message: words)]
    }

    /// `…: Fatal error: Index out of range` → `Fatal error: Index out of range`.
    static func fatalErrorMessage(in text: String) -> String? {
        for line in text.split(separator: "\n") {
            for marker in ["Fatal error", "Precondition failed", "Assertion failed"] {
                if let range = line.firstRange(of: marker) { return String(line[range.lowerBound...]) }
            }
        }
        return nil
    }

    /// The Swift runtime's and standard library's own images (Linux and Apple names).
    static func isRuntimeImage(_ name: String) -> Bool {
        name.hasPrefix("libswift") && !name.hasPrefix("libswiftUI")
    }

    /// Functions of the Swift runtime and standard library, in any of the forms logs use.
    static func isRuntime(_ name: String) -> Bool {
        name.hasPrefix("Swift.") || name.hasPrefix("$ss") || name.hasPrefix("swift_") || name.hasPrefix("_swift_")
            || name.containsBytes("_assertionFailure") || name.hasPrefix("Swift runtime failure")
            || name.hasPrefix("specialized Swift.") || name.hasPrefix("specialized Array") || name.hasPrefix("closure #1 in closure #1 in _assertionFailure")
            || name.hasPrefix("_fatalErrorMessage") || name == "fatalError" || name.hasPrefix("Swift._")
    }
}
