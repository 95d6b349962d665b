import Foundation
import HeapAnalysis
import HeapSymbolication
import HeapTestSupport
import Testing

/// memcheck's leak kinds on Programs/leak_kinds.c: trees (roots definitely lost, children
/// indirectly), a leaked cycle, interior pointers, and blocks held only in another thread's
/// register, another thread's stack (a thread that never allocated) and an mmap'd page. The
/// designed numbers per function, and the same numbers from valgrind memcheck's XML when
/// valgrind is installed.
@Suite(.serialized) struct HeapLeakKindTests {
    struct Tally: Equatable, CustomStringConvertible {
        var blocks: Int
        var bytes: UInt64
        var description: String { "\(blocks) blocks, \(bytes) B" }
    }

    /// kind → function → tally.
    typealias Table = [LeakKind: [String: Tally]]

    /// What leak_kinds.c is written to leave (its header comment).
    static let designed: Table = [
        .definitelyLost: ["tree_root": Tally(blocks: 4, bytes: 192), "cycle_node": Tally(blocks: 1, bytes: 40),
                          "lost_plain": Tally(blocks: 5, bytes: 500)],
        .indirectlyLost: ["tree_child": Tally(blocks: 12, bytes: 384), "cycle_node": Tally(blocks: 2, bytes: 80)],
        .possiblyLost: ["interior_block": Tally(blocks: 1, bytes: 64), "interior_child": Tally(blocks: 1, bytes: 24)],
        .stillReachable: ["kept_global": Tally(blocks: 3, bytes: 240), "held_in_mmap": Tally(blocks: 1, bytes: 72),
                          "held_in_register": Tally(blocks: 1, bytes: 56), "handed_over": Tally(blocks: 1, bytes: 88)],
    ]

    /// With `blocked`: one more thread, which blocks every signal and holds a block on its stack.
    static func designed(_ mode: String) -> Table {
        var table = designed
        if mode == "blocked" { table[.stillReachable]?["blocked_holder"] = Tally(blocks: 1, bytes: 120) }
        if mode == "thread-exit" { table[.stillReachable]?["main"] = Tally(blocks: 1, bytes: 136) }
        return table
    }

    /// The functions of leak_kinds.c that allocate.
    static let programFunctions: Set<String> = Set(designed("blocked").values.flatMap(\.keys) + ["main"])

    static let built: Result<String, any Error> = Result {
        guard let cc = HeapFixture.compiler() else { throw HeapFixture.FixtureError(message: "no C compiler (cc, gcc or clang)") }
        let program = try HeapFixture.temporaryDirectory().appendingPathComponent("leak-kinds").path
        // DWARF 4: valgrind 3.19 does not read every DWARF 5 form clang writes. No sibling calls:
        // `return calloc(…)` stays a call, so each helper is its blocks' function in both tools.
        let result = try HeapFixture.run(cc, ["-g", "-gdwarf-4", "-O1", "-fno-optimize-sibling-calls", "-pthread",
                                              HeapFixture.programs.appendingPathComponent("leak_kinds.c").path, "-o", program])
        guard result.status == 0 else { throw HeapFixture.FixtureError(message: "cc failed: \(result.stderr)") }
        return program
    }

    static func recorded(_ mode: String) throws -> HeapRecording {
        let run = try HeapFixture.record(try built.get(), mode.isEmpty ? [] : [mode], options: ["--scan-at-exit"], name: "leak-kinds-\(mode)")
        #expect(run.status == 0)
        return try HeapFixture.load(run.recordingPath)
    }

    /// devkit's kinds by function (the innermost frame that is not the allocator).
    static func devkitTable(_ recording: HeapRecording) throws -> Table {
        let scan = try #require(recording.scan)
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer()), key: .function)
        var table: Table = [:]
        for (kind, blocks) in LeakReport.classify(HeapTimeline(recording), scan: scan) {
            for group in grouper.groups(blocks) { table[kind, default: [:]][group.key] = Tally(blocks: group.count, bytes: group.bytes) }
        }
        return table
    }

    static func restricted(_ table: Table, to functions: Set<String>) -> Table {
        table.mapValues { $0.filter { functions.contains($0.key) } }.filter { !$0.value.isEmpty }
    }

    static func total(_ table: Table, _ kind: LeakKind) -> Tally {
        (table[kind] ?? [:]).values.reduce(Tally(blocks: 0, bytes: 0)) { Tally(blocks: $0.blocks + $1.blocks, bytes: $0.bytes + $1.bytes) }
    }

    @Test(arguments: ["", "blocked", "churn", "thread-exit"]) func kindsPerFunctionAreTheDesignedOnes(mode: String) throws {
        let recording = try Self.recorded(mode)
        let scan = try #require(recording.scan)
        #expect(scan.flags.isEmpty)
        let kinds = try #require(scan.kinds)
        // The thread blocked with r12 and the thread that never allocated, both stopped; with
        // `blocked`, a third that could not be.
        // With `thread-exit`, main is stopped too (the exiting thread never is).
        #expect(kinds.threadsStopped == (mode == "churn" ? 10 : mode == "thread-exit" ? 3 : 2))
        #expect(kinds.threadsUnanswered == (mode == "blocked" ? 1 : 0))
        #expect(kinds.mappingsScanned >= 1)
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer()), key: .function)
        let report = try #require(LeakReport(recording: recording, timeline: HeapTimeline(recording), grouper: grouper, top: 20))
        #expect(report.textReport.contains("warning: 1 other thread did not stop at exit") == (mode == "blocked"))
        let table = try Self.devkitTable(recording)
        #expect(Self.restricted(table, to: Self.programFunctions) == Self.designed(mode))
        // Churning threads, stopped at exit: what they held is still reachable, nothing lost.
        for kind in [LeakKind.definitelyLost, .indirectlyLost, .possiblyLost] { #expect(table[kind]?["churner"] == nil) }
        #expect((table[.stillReachable]?["churner"]?.blocks ?? 0) <= (mode == "churn" ? 8 : 0))
        // 4 roots × 3 children: 4 direct and 12 indirect, not 16 leaked.
        #expect(table[.definitelyLost]?["tree_root"] == Tally(blocks: 4, bytes: 192))
        #expect(table[.indirectlyLost]?["tree_child"] == Tally(blocks: 12, bytes: 384))
        // The SCAN record's counts agree with its address lists.
        #expect(kinds.indirectlyLostBlocks == 14 && kinds.indirectlyLostBytes == 464)
        #expect(scan.unreachableBlocks == 24 && scan.unreachableBytes == 732 + 464)
        // Nothing else in the process is definitely or indirectly lost.
        #expect(Self.total(table, .definitelyLost) == Tally(blocks: 10, bytes: 732))
        #expect(Self.total(table, .indirectlyLost) == Tally(blocks: 14, bytes: 464))
    }

    /// One `<error>` of memcheck's XML leak report: its kind, direct bytes and blocks, and the
    /// innermost function that is not the allocator.
    static func memcheckTable(xml: String) throws -> Table {
        let allocators: Set<String> = ["malloc", "calloc", "realloc", "memalign", "posix_memalign", "aligned_alloc", "valloc"]
        let kinds: [String: LeakKind] = ["Leak_DefinitelyLost": .definitelyLost, "Leak_IndirectlyLost": .indirectlyLost,
                                         "Leak_PossiblyLost": .possiblyLost, "Leak_StillReachable": .stillReachable]
        func elements(_ name: String, in text: Substring) -> [Substring] {
            var found: [Substring] = [], rest = text[...]
            while let open = rest.range(of: "<\(name)>"), let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) {
                found.append(rest[open.upperBound..<close.lowerBound])
                rest = rest[close.upperBound...]
            }
            return found
        }
        // "120 (40 direct, 80 indirect) bytes in 1 blocks are definitely lost …": the direct part
        // is this record's; the indirect blocks have records of their own.
        let what = try Regex(#"^([\d,]+) (?:\(([\d,]+) direct, [\d,]+ indirect\) )?bytes in ([\d,]+) blocks"#)
        func number(_ s: Substring?) -> UInt64? { s.flatMap { UInt64($0.replacingOccurrences(of: ",", with: "")) } }
        var table: Table = [:]
        for error in elements("error", in: xml[...]) {
            guard let kindName = elements("kind", in: error).first, let kind = kinds[String(kindName)] else { continue }
            let xwhat = try #require(elements("xwhat", in: error).first)
            let text = try #require(elements("text", in: xwhat).first)
            let match = try #require(text.firstMatch(of: what), "unexpected leak text: \(text)")
            let bytes = try #require(number(match.output[2].substring) ?? number(match.output[1].substring))
            let blocks = try #require(number(match.output[3].substring))
            let function = elements("fn", in: error).map(String.init).first { !allocators.contains($0) } ?? "?"
            let old = table[kind, default: [:]][function] ?? Tally(blocks: 0, bytes: 0)
            table[kind, default: [:]][function] = Tally(blocks: old.blocks + Int(blocks), bytes: old.bytes + bytes)
        }
        return table
    }

    /// `valgrind --leak-check=full --show-leak-kinds=all --xml=yes` on the same binary: per
    /// function of the program, every kind equal; in the whole process, definitely and
    /// indirectly lost equal, and as many possibly lost DTVs (glibc's per-thread blocks, reached
    /// through `dtv + 1`; a slot larger under devkit, whose recorder has TLS). memcheck's still
    /// reachable blocks outside the program differ by design: valgrind frees libc's own at exit
    /// (`__libc_freeres`), devkit reports what the program left.
    @Test(arguments: ["", "blocked", "thread-exit"]) func kindsEqualMemcheck(mode: String) throws {
        guard let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("skipped: valgrind not installed (Scripts/install-deps installs it)")
            return
        }
        let xmlPath = try HeapFixture.temporaryDirectory().appendingPathComponent("memcheck.xml").path
        let memcheck = try HeapFixture.run(valgrind, ["--leak-check=full", "--show-leak-kinds=all", "--xml=yes", "--xml-file=\(xmlPath)",
                                                      try Self.built.get()] + (mode.isEmpty ? [] : [mode]))
        try #require(memcheck.status == 0, "valgrind failed: \(memcheck.stderr)")
        let theirs = try Self.memcheckTable(xml: try String(contentsOfFile: xmlPath, encoding: .utf8))
        let ours = try Self.devkitTable(try Self.recorded(mode))
        #expect(Self.restricted(theirs, to: Self.programFunctions) == Self.designed(mode))
        #expect(Self.restricted(ours, to: Self.programFunctions) == Self.restricted(theirs, to: Self.programFunctions))
        for kind in [LeakKind.definitelyLost, .indirectlyLost] {
            #expect(Self.total(ours, kind) == Self.total(theirs, kind), "\(kind)")
        }
        #expect(theirs[.possiblyLost]?["allocate_dtv"]?.blocks == (mode == "blocked" || mode == "thread-exit" ? 3 : 2))
        #expect(ours[.possiblyLost]?["allocate_dtv"]?.blocks == theirs[.possiblyLost]?["allocate_dtv"]?.blocks)
    }

    static let graphBuilt: Result<String, any Error> = Result {
        guard let cc = HeapFixture.compiler() else { throw HeapFixture.FixtureError(message: "no C compiler (cc, gcc or clang)") }
        let program = try HeapFixture.temporaryDirectory().appendingPathComponent("leak-graph").path
        let result = try HeapFixture.run(cc, ["-g", "-gdwarf-4", "-O1", "-fno-optimize-sibling-calls",
                                              HeapFixture.programs.appendingPathComponent("leak_graph.c").path, "-o", program])
        guard result.status == 0 else { throw HeapFixture.FixtureError(message: "cc failed: \(result.stderr)") }
        return program
    }

    /// Programs/leak_graph.c: random graphs of 300 blocks (start and interior pointers, cycles,
    /// chains, a few roots). Every kind's blocks and bytes, over the whole process, equal
    /// memcheck's: the classification itself, not only the designed cases.
    @Test(arguments: 1...6) func randomGraphsEqualMemcheck(seed: Int) throws {
        guard let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("skipped: valgrind not installed (Scripts/install-deps installs it)")
            return
        }
        let program = try Self.graphBuilt.get()
        let xmlPath = try HeapFixture.temporaryDirectory().appendingPathComponent("graph-\(seed).xml").path
        let memcheck = try HeapFixture.run(valgrind, ["--leak-check=full", "--show-leak-kinds=all", "--xml=yes", "--xml-file=\(xmlPath)",
                                                      program, String(seed)])
        try #require(memcheck.status == 0, "valgrind failed: \(memcheck.stderr)")
        let theirs = try Self.memcheckTable(xml: try String(contentsOfFile: xmlPath, encoding: .utf8))
        let run = try HeapFixture.record(program, [String(seed)], options: ["--scan-at-exit"], name: "leak-graph-\(seed)")
        #expect(run.status == 0)
        let ours = try Self.devkitTable(try HeapFixture.load(run.recordingPath))
        for kind in LeakKind.allCases {
            #expect(Self.total(ours, kind) == Self.total(theirs, kind), "seed \(seed): \(kind.title)")
        }
        #expect(Self.total(ours, .definitelyLost).blocks > 0 && Self.total(ours, .indirectlyLost).blocks > 0)
        #expect(Self.total(ours, .possiblyLost).blocks > 0 && Self.total(ours, .stillReachable).blocks > 0)
    }
}
