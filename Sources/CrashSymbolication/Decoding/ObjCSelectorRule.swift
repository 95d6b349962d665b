import CrashReport

/// Says which Objective-C message was being sent when a crash happened in `objc_msgSend`
/// or on "unrecognized selector".
///
/// `objc_msgSend(receiver, selector, …)` keeps the selector in the second argument register:
/// `x1` on arm64, `rsi` on x86_64, `r1` on armv7; on i386 it is on the stack, which a crash
/// report does not hold. A selector is a pointer to its name, in the app binary's
/// `__TEXT,__objc_methname` (dSYMs lack that section, so the binary itself is needed).
public struct ObjCSelectorRule: CrashDecodingRule {
    public init() {}

    public static let description = DecodingRuleDescription(
        id: "objc.selector",
        summary: "The selector sent when a crash is in objc_msgSend or is an unrecognized selector, read from the selector register.",
        examples: [
            DecodingExample(ExampleCrash(
                exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", faultAddress: 0x10,
                frames: ["objc_msgSend", "-[ViewController viewDidLoad]"],
                registers: [("x0", 0x2830_1c000), ("x1", 0x1_0000_7f30)],
                memory: [.string("setTitle:", at: 0x1_0000_7f30)]),
                expect: ["sent selector setTitle: (x1 = 0x100007f30, in MyApp __TEXT,__objc_methname)"]),
            DecodingExample(ExampleCrash(
                architecture: "x86_64", exceptionType: "EXC_CRASH", signal: "SIGABRT",
                reason: "*** -[__NSCFNumber length]: unrecognized selector sent to instance 0xb000000000000012",
                frames: ["__pthread_kill", "abort"], registers: [("rdi", 0), ("rsi", 0x7fff_0000_1000)],
                memory: [.unreadImage("libsystem_kernel.dylib", at: 0x7fff_0000_0000, size: 0x10000)]),
                expect: ["sent selector -length (from the report's message)"]),
            DecodingExample(ExampleCrash(
                exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV",
                frames: ["objc_msgSend", "main"], registers: [("x1", 0x1_9000_0000)],
                memory: [.unreadImage("libobjc.A.dylib", at: 0x1_8fff_0000, size: 0x100000)]),
                expect: ["objc_msgSend's selector is in x1 = 0x190000000, inside libobjc.A.dylib, whose binary devkit does not have: give it with --search-path"]),
            DecodingExample(ExampleCrash(
                architecture: "armv7", exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV",
                frames: ["objc_msgSend$stub"], registers: [("r1", 0x4000)], memory: [.string("dealloc", at: 0x4000)]),
                expect: ["sent selector dealloc (r1 = 0x4000, in MyApp __TEXT,__objc_methname)"]),
            DecodingExample(ExampleCrash(
                architecture: "i386", exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", frames: ["objc_msgSend"]),
                expect: ["objc_msgSend on i386 takes the selector on the stack, which a crash report does not hold"]),
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", frames: ["memcpy", "main"],
                                         registers: [("x1", 0x1_0000_7f30)], memory: [.string("setTitle:", at: 0x1_0000_7f30)]),
                            expect: []),
        ])

    public func decode(_ context: DecodingContext) -> [CrashDecoding] {
        let top = context.topFunction ?? ""
        let inMsgSend = top.hasPrefix("objc_msgSend") || top.hasPrefix("_objc_msgSend") || top.hasPrefix("objc_msgLookup")
        let text = context.exceptionText
        let unrecognized = text.containsBytes("unrecognized selector")
        guard inMsgSend || unrecognized else { return [] }
        let id = Self.description.id
        // An "unrecognized selector" message names the selector (and its receiver's class).
        if unrecognized, let selector = Self.selector(inMessage: text) {
            return [CrashDecoding(rule: id, message: "sent selector \(selector) (from the report's message)")]
        }
        let register: String
        switch context.architecture {
        case .arm64, .arm64e: register = "x1"
        case .x86_64: register = "rsi"
        case .arm: register = "r1"
        case .i386:
            return [CrashDecoding(rule: id, message: "objc_msgSend on i386 takes the selector on the stack, which a crash report does not hold")]
        case .unknown: return []
        }
        guard let value = context.register(register) else { return [] }
        let hexValue = FrameText.hex(value)
        // arm64e signs nothing in x1, but strip any high bits a report may show.
        guard let info = context.memory.describe(value) else {
            return [CrashDecoding(rule: id, register: register, value: value,
                                  message: "objc_msgSend's selector is in \(register) = \(hexValue), which is in no image of the report (a selector registered at run time, or not a selector)")]
        }
        if let name = info.string, info.kind == .selectorName || info.kind == .cString {
            let sign = text.containsBytes("sent to class") ? "+" : (text.containsBytes("sent to instance") ? "-" : "")
            return [CrashDecoding(rule: id, register: register, value: value,
                                  message: "sent selector \(sign)\(name) (\(register) = \(hexValue), in \(info.imageName) \(info.section ?? ""))")]
        }
        if !info.binaryAvailable {
            return [CrashDecoding(rule: id, register: register, value: value,
                                  message: "objc_msgSend's selector is in \(register) = \(hexValue), inside \(info.imageName), whose binary devkit does not have: give it with --search-path")]
        }
        return [CrashDecoding(rule: id, register: register, value: value,
                              message: "\(register) = \(hexValue) points into \(info.imageName) \(info.section ?? "") but not at a selector name")]
    }

    /// `-[__NSCFNumber length]: unrecognized selector` → `-length`; `+[Foo bar:]` → `+bar:`.
    static func selector(inMessage text: String) -> String? {
        guard let range = text.firstRange(of: "]: unrecognized selector") else { return nil }
        let before = text[..<range.lowerBound]
        guard let open = before.lastIndex(where: { $0 == "[" }), open > before.startIndex else { return nil }
        let sign = before[before.index(before: open)]
        guard sign == "-" || sign == "+" else { return nil }
        let inside = before[before.index(after: open)...]
        guard let space = inside.firstIndex(of: " ") else { return nil }
        return "\(sign)\(inside[inside.index(after: space)...])"
    }
}
