import CrashReport

/// Names the fill patterns allocators and runtimes write into memory, when the fault
/// address or a register holds one (give or take a field offset).
///
/// Triggers on a value within 4 KiB of a known pattern: macOS MallocScribble (0xaa… fresh,
/// 0x55… freed), Apple's `0xbaddc0dedeadbead` (what the ObjC runtime and others put in
/// memory that must not be used), `0xdeadbeef`, MSVC debug heap fills and jemalloc junk.
public struct PoisonPatternRule: CrashDecodingRule {
    public init() {}

    static let patterns: [(UInt64, String)] = [
        (0xaaaa_aaaa_aaaa_aaaa, "MallocScribble's fill for newly allocated memory: an uninitialised pointer"),
        (0x5555_5555_5555_5555, "MallocScribble's fill for freed memory: a use after free"),
        (0xbadd_c0de_dead_bead, "a poison value (0xbaddc0dedeadbead) Apple's runtimes write where memory must not be used: a use after free or an uninitialised pointer"),
        (0xdead_beef_dead_beef, "the 0xdeadbeef marker: memory a program or allocator poisoned"),
        (0x0000_0000_dead_beef, "the 0xdeadbeef marker: memory a program or allocator poisoned"),
        (0xfeed_face_feed_face, "the 0xfeedface marker: memory a program poisoned"),
        (0xcdcd_cdcd_cdcd_cdcd, "the MSVC debug heap's fill for fresh memory: an uninitialised pointer"),
        (0xdddd_dddd_dddd_dddd, "the MSVC debug heap's fill for freed memory: a use after free"),
        (0xcccc_cccc_cccc_cccc, "the MSVC fill for uninitialised stack memory"),
        (0x5a5a_5a5a_5a5a_5a5a, "jemalloc's junk fill for freed memory: a use after free"),
        (0xa5a5_a5a5_a5a5_a5a5, "jemalloc's junk fill for fresh memory: an uninitialised pointer"),
    ]

    public static let description = DecodingRuleDescription(
        id: "value.poison-pattern",
        summary: "A fault address or register that is an allocator's or runtime's fill pattern (MallocScribble, 0xbaddc0dedeadbead, 0xdeadbeef).",
        examples: [
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", faultAddress: 0x5555_5555_5555_5565),
                            expect: ["fault address 0x5555555555555565 is MallocScribble's fill for freed memory: a use after free (+0x10)"]),
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", faultAddress: 0x10,
                                         registers: [("x8", 0xbadd_c0de_dead_bead), ("x9", 0x1234)]),
                            expect: ["x8 = 0xbaddc0dedeadbead is a poison value (0xbaddc0dedeadbead) Apple's runtimes write where memory must not be used: a use after free or an uninitialised pointer"]),
            DecodingExample(ExampleCrash(exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", faultAddress: 0x1_0000_0000,
                                         registers: [("x0", 0xaaaa_aaab_0000_0000)]), expect: []),
        ])

    public func decode(_ context: DecodingContext) -> [CrashDecoding] {
        var values: [(String, UInt64)] = []
        if let fault = context.report.exception?.faultAddress { values.append(("fault address", fault)) }
        values += context.registers.map { ($0.name, $0.value) }
        var result: [CrashDecoding] = []
        for (name, value) in values {
            guard let (pattern, meaning) = Self.patterns.first(where: { value &- $0.0 < 0x1000 || $0.0 &- value < 0x100 }) else { continue }
            let delta = value >= pattern ? "+0x\(String(value - pattern, radix: 16))" : "-0x\(String(pattern - value, radix: 16))"
            let suffix = value == pattern ? "" : " (\(delta))"
            result.append(CrashDecoding(rule: Self.description.id, register: name, value: value,
                                        message: "\(name == "fault address" ? name : "\(name) =") 0x\(String(value, radix: 16)) is \(meaning)\(suffix)"))
        }
        return result
    }
}
