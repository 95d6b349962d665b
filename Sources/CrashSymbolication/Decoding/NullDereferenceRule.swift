import CrashReport

/// Recognises a null pointer dereference: a bad access at an address in the first 64 KiB.
///
/// Triggers on `EXC_BAD_ACCESS` / SIGSEGV / SIGBUS whose fault address is below 0x10000 (no
/// system maps memory there; Linux's `vm.mmap_min_addr` is 64 KiB). The address is then the
/// offset of the field read through a nil pointer: 0x18 is the fourth 8-byte field.
public struct NullDereferenceRule: CrashDecodingRule {
    public init() {}

    static let limit: UInt64 = 0x10000

    public static let description = DecodingRuleDescription(
        id: "fault.null-dereference",
        summary: "A bad access near address zero: a null pointer dereference, with the field offset.",
        examples: [
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", faultAddress: 0x18,
                                         frames: ["-[Cache objectForKey:] @ Cache.m:40"]),
                            expect: ["null pointer dereference (offset 0x18), in -[Cache objectForKey:] at Cache.m:40"]),
            DecodingExample(ExampleCrash(architecture: "x86_64", signal: "SIGSEGV", reason: "Bad pointer dereference", faultAddress: 0,
                                         frames: ["level3(_:) @ main.swift:3"]),
                            expect: ["null pointer dereference (address 0x0), in level3(_:) at main.swift:3"]),
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", faultAddress: 0x1_0453_0000), expect: []),
            DecodingExample(ExampleCrash(exceptionType: "EXC_CRASH", signal: "SIGABRT", faultAddress: 0), expect: []),
        ])

    public func decode(_ context: DecodingContext) -> [CrashDecoding] {
        guard let fault = context.report.exception?.faultAddress, fault < Self.limit, Self.isBadAccess(context) else { return [] }
        var message = fault == 0 ? "null pointer dereference (address 0x0)" : "null pointer dereference (offset 0x\(String(fault, radix: 16)))"
        if let (thread, frames) = context.crash.crashedThread, let first = frames.first, let logged = thread.frames.first {
            message += ", in " + context.describe(first, logged)
        }
        return [CrashDecoding(rule: Self.description.id, register: "fault address", value: fault, message: message)]
    }

    static func isBadAccess(_ context: DecodingContext) -> Bool {
        let exception = context.report.exception
        let words = [exception?.type, exception?.signal, exception?.reason].compactMap { $0 }.joined(separator: " ")
        return ["EXC_BAD_ACCESS", "SIGSEGV", "SIGBUS", "Bad pointer dereference", "KERN_INVALID_ADDRESS", "KERN_PROTECTION_FAILURE"].contains { words.containsBytes($0) }
    }
}
