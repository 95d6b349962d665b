import CrashReport

/// Says what each of the crashed thread's registers points at, when it points into an
/// image devkit has: a function (`symbol + offset`) or a string.
///
/// The program counter is left out (frame 0 already shows it); the link register and
/// return-address-like values are kept, since they name the caller when the stack is
/// damaged. A string is shown only from string sections, or from constants when it is
/// printable text.
public struct RegisterPointerRule: CrashDecodingRule {
    public init() {}

    static let skipped: Set<String> = ["pc", "rip", "eip", "cpsr", "rflags", "eflags", "far", "esr", "flavor", "cs", "fs", "gs", "trap", "err"]

    public static let description = DecodingRuleDescription(
        id: "register.pointer",
        summary: "Registers that point into an image's code (symbol + offset) or strings (the C string).",
        examples: [
            DecodingExample(ExampleCrash(registers: [("x0", 0x5), ("x2", 0x1_0000_4020), ("x3", 0x1_0000_7f30), ("pc", 0x1_0000_4010)],
                                         memory: [.function("-[Model load]", at: 0x1_0000_4000),
                                                  .string("Missing model %@", at: 0x1_0000_7f30, section: "__TEXT,__cstring", kind: .cString)]),
                            expect: ["x2 = 0x100004020: -[Model load] + 32 (in MyApp)",
                                     "x3 = 0x100007f30: \"Missing model %@\" (MyApp __TEXT,__cstring)"]),
            DecodingExample(ExampleCrash(registers: [("x0", 0x1_9000_0000)], memory: [.unreadImage("UIKitCore", at: 0x1_8fff_0000, size: 0x100000)]),
                            expect: []),
        ])

    public func decode(_ context: DecodingContext) -> [CrashDecoding] {
        var result: [CrashDecoding] = []
        for register in context.registers where !Self.skipped.contains(register.name) && register.value > 0xffff {
            guard let info = context.memory.describe(register.value) else { continue }
            let hexValue = FrameText.hex(register.value)
            if info.kind == .code, let symbol = info.symbol {
                result.append(CrashDecoding(rule: Self.description.id, register: register.name, value: register.value,
                                            message: "\(register.name) = \(hexValue): \(symbol) + \(info.offset ?? 0) (in \(info.imageName)\(info.location.map { ", \($0)" } ?? ""))"))
            } else if let string = info.string {
                result.append(CrashDecoding(rule: Self.description.id, register: register.name, value: register.value,
                                            message: "\(register.name) = \(hexValue): \"\(string)\" (\(info.imageName) \(info.section ?? ""))"))
            }
        }
        return result
    }
}
