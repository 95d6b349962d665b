import CrashReport

/// Says where a bad access's address is: in code or read-only data of an image (a write to
/// read-only memory, a call through a corrupt pointer), or in no image at all.
///
/// Triggers on a bad access (see `NullDereferenceRule`) whose fault address is above the
/// null page. An address in no image is heap, stack, or unmapped: a crash log lists images,
/// not the other mappings, so devkit says which of them it can rule out.
public struct FaultAddressRule: CrashDecodingRule {
    public init() {}

    public static let description = DecodingRuleDescription(
        id: "fault.address",
        summary: "Where a bad access's address lies: an image's code, constants or data, or outside every image.",
        examples: [
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGBUS", faultAddress: 0x1_0000_4010,
                                         memory: [.function("-[Model load]", at: 0x1_0000_4000)]),
                            expect: ["fault address 0x100004010 is in MyApp __TEXT,__text (-[Model load] + 16): writing to code, or calling through a corrupt function pointer"]),
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", faultAddress: 0x1_0000_7f30,
                                         memory: [.string("title", at: 0x1_0000_7f30, section: "__TEXT,__cstring", kind: .cString)]),
                            expect: ["fault address 0x100007f30 is in MyApp __TEXT,__cstring (the string \"title\"): read-only memory written to"]),
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", faultAddress: 0x2830_1c018),
                            expect: ["fault address 0x28301c018 is in no image of the report: heap, stack or unmapped memory (a freed or never-initialised object is the usual cause)"]),
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", faultAddress: 0x8), expect: []),
        ])

    public func decode(_ context: DecodingContext) -> [CrashDecoding] {
        guard let fault = context.report.exception?.faultAddress, fault >= NullDereferenceRule.limit,
              NullDereferenceRule.isBadAccess(context) else { return [] }
        let id = Self.description.id
        let hexValue = FrameText.hex(fault)
        guard let info = context.memory.describe(fault) else {
            return [CrashDecoding(rule: id, register: "fault address", value: fault,
                                  message: "fault address \(hexValue) is in no image of the report: heap, stack or unmapped memory (a freed or never-initialised object is the usual cause)")]
        }
        var place = "\(info.imageName)\(info.section.map { " \($0)" } ?? "")"
        switch info.kind {
        case .code:
            if let symbol = info.symbol { place += " (\(symbol) + \(info.offset ?? 0))" }
            return [CrashDecoding(rule: id, register: "fault address", value: fault,
                                  message: "fault address \(hexValue) is in \(place): writing to code, or calling through a corrupt function pointer")]
        case .cString, .selectorName, .readOnlyData:
            if let string = info.string { place += " (the string \"\(string)\")" }
            return [CrashDecoding(rule: id, register: "fault address", value: fault,
                                  message: "fault address \(hexValue) is in \(place): read-only memory written to")]
        default:
            return [CrashDecoding(rule: id, register: "fault address", value: fault, message: "fault address \(hexValue) is in \(place)")]
        }
    }
}
