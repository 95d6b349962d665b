import CrashReport

/// Explains pointers whose high or low bits are not an address: Objective-C tagged
/// pointers, and arm64e pointer-authentication (PAC) bits.
///
/// Looks at the fault address and, when frame 0 is `objc_msgSend`, the receiver register.
/// A tagged pointer (bit 63 on arm64, bit 0 on x86_64 macOS) holds a small value such as an
/// NSNumber in the pointer itself; sending it a message its class lacks, or reading through
/// it, crashes. On arm64e, bits above the 47-bit address space are a signature: a value
/// whose stripped address lands in an image but whose signature bits remain was not
/// authenticated (a corrupt or forged function pointer).
public struct PointerBitsRule: CrashDecodingRule {
    public init() {}

    static let addressMask: UInt64 = (1 << 47) - 1

    public static let description = DecodingRuleDescription(
        id: "pointer.tag-bits",
        summary: "Objective-C tagged pointers and arm64e pointer-authentication bits in the fault address or the message receiver.",
        examples: [
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", frames: ["objc_msgSend", "main"],
                                         registers: [("x0", 0x8000_0000_0000_0012), ("x1", 0x10)]),
                            expect: ["x0 = 0x8000000000000012 is an Objective-C tagged pointer (bit 63 set): a small value such as an NSNumber or NSString stored in the pointer, not an object in memory"]),
            DecodingExample(ExampleCrash(architecture: "arm64e", exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV",
                                         faultAddress: 0x002a_0001_0000_4010, memory: [.function("-[Model load]", at: 0x1_0000_4000)]),
                            expect: ["fault address 0x2a000100004010 carries pointer-authentication bits; stripped it is 0x100004010 (-[Model load] + 16 in MyApp): a pointer whose signature did not check"]),
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", frames: ["objc_msgSend"],
                                         registers: [("x0", 0x2830_1c000)]), expect: []),
        ])

    public func decode(_ context: DecodingContext) -> [CrashDecoding] {
        var values: [(String, UInt64)] = []
        if let fault = context.report.exception?.faultAddress { values.append(("fault address", fault)) }
        let top = context.topFunction ?? ""
        if top.hasPrefix("objc_msgSend") || top.hasPrefix("objc_retain") || top.hasPrefix("objc_release") {
            let receiver: String? = switch context.architecture {
            case .arm64, .arm64e: "x0"
            case .x86_64: "rdi"
            case .arm: "r0"
            default: nil
            }
            if let receiver, let value = context.register(receiver) { values.append((receiver, value)) }
        }
        var result: [CrashDecoding] = []
        let id = Self.description.id
        for (name, value) in values {
            let label = name == "fault address" ? name : "\(name) ="
            let hexValue = FrameText.hex(value)
            let arm = context.architecture == .arm64 || context.architecture == .arm64e
            if arm, value >> 63 == 1 {
                result.append(CrashDecoding(rule: id, register: name, value: value, message: "\(label) \(hexValue) is an Objective-C tagged pointer (bit 63 set): a small value such as an NSNumber or NSString stored in the pointer, not an object in memory"))
            } else if context.architecture == .x86_64, name != "fault address", value & 1 == 1, value > 0xffff {
                result.append(CrashDecoding(rule: id, register: name, value: value, message: "\(label) \(hexValue) is an Objective-C tagged pointer (bit 0 set): a small value stored in the pointer, not an object in memory"))
            } else if arm, value & ~Self.addressMask != 0 {
                let stripped = value & Self.addressMask
                guard let info = context.memory.describe(stripped) else { continue }
                let what = info.symbol.map { "\($0) + \(info.offset ?? 0) in \(info.imageName)" } ?? info.imageName
                result.append(CrashDecoding(rule: id, register: name, value: value, message: "\(label) \(hexValue) carries pointer-authentication bits; stripped it is 0x\(String(stripped, radix: 16)) (\(what)): a pointer whose signature did not check"))
            }
        }
        return result
    }
}
