import Foundation
import HeapAnalysis
import HeapSymbolication
import HeapTestSupport
import Testing

/// `devkit heap record --scan-at-exit` on Programs/leaks.c: exact leaked/abandoned counts per
/// function, and the leaked bytes against valgrind memcheck's definitely + indirectly lost.
@Suite(.serialized) struct HeapLeakTests {
    static let built: Result<String, any Error> = Result {
        guard let cc = HeapFixture.compiler() else { throw HeapFixture.FixtureError(message: "no C compiler (cc, gcc or clang)") }
        let program = try HeapFixture.temporaryDirectory().appendingPathComponent("leaks").path
        let result = try HeapFixture.run(cc, ["-g", "-O1", "-pthread", HeapFixture.programs.appendingPathComponent("leaks.c").path, "-o", program])
        guard result.status == 0 else { throw HeapFixture.FixtureError(message: "cc failed: \(result.stderr)") }
        return program
    }

    /// Leaked and abandoned blocks by function: name → (count, bytes).
    static func classified(_ recording: HeapRecording) throws -> (leaked: [String: (count: Int, bytes: UInt64)], abandoned: [String: (count: Int, bytes: UInt64)]) {
        let scan = try #require(recording.scan)
        let timeline = HeapTimeline(recording)
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer()), key: .function)
        let (leaked, abandoned) = LeakReport.split(timeline, scan: scan)
        func table(_ blocks: [HeapTimeline.Block]) -> [String: (count: Int, bytes: UInt64)] {
            var result: [String: (count: Int, bytes: UInt64)] = [:]
            for group in grouper.groups(blocks) { result[group.key] = (group.count, group.bytes) }
            return result
        }
        return (table(leaked), table(abandoned))
    }

    static func record(_ mode: String, scan: Bool = true) throws -> HeapRecording {
        let run = try HeapFixture.record(try built.get(), [mode], options: scan ? ["--scan-at-exit"] : [], name: mode)
        #expect(run.status == 0)
        return try HeapFixture.load(run.recordingPath)
    }

    @Test func knownLeaksAreLeakedAndReachableBlocksAbandoned() throws {
        let recording = try Self.record("leaks")
        #expect(recording.end?.reason == .exit)
        #expect(recording.warnings.isEmpty)
        let scan = try #require(recording.scan)
        #expect(scan.flags.isEmpty)
        #expect(scan.unreachableBlocks == 120)
        #expect(scan.unreachableBytes == 100 * 64 + 20 * 32)
        let (leaked, abandoned) = try Self.classified(recording)
        #expect(leaked["leak_dropped"]?.count == 100)
        #expect(leaked["leak_dropped"]?.bytes == 6400)
        // The whole list: the head and the 19 nodes only it reached.
        #expect(leaked["leak_list"]?.count == 20)
        #expect(leaked["leak_list"]?.bytes == 640)
        #expect(leaked.count == 2)
        #expect(abandoned["keep_global"]?.count == 50)
        #expect(abandoned["keep_global"]?.bytes == 4800)
        // Only an interior pointer refers to it: reached (possibly lost), not unreachable.
        #expect(abandoned["keep_interior"]?.count == 1)
        #expect(abandoned["keep_interior"]?.bytes == 200)
        #expect(abandoned["leak_dropped"] == nil && abandoned["leak_list"] == nil && abandoned["churn"] == nil)
    }

    /// The same blocks by memcheck's kinds: the list is its head (definitely lost) and 19 nodes
    /// only the head reaches (indirectly lost); the interior-pointer block is possibly lost.
    @Test func knownLeaksByKind() throws {
        let recording = try Self.record("leaks")
        let scan = try #require(recording.scan)
        let kinds = try #require(scan.kinds)
        #expect(kinds.indirectlyLostBlocks == 19 && kinds.indirectlyLostBytes == 19 * 32)
        #expect(kinds.possiblyLostBlocks == 1 && kinds.possiblyLostBytes == 200)
        #expect(kinds.threadsStopped == 0 && kinds.threadsUnanswered == 0)
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer()), key: .function)
        var table: [LeakKind: [String: Int]] = [:]
        for (kind, blocks) in LeakReport.classify(HeapTimeline(recording), scan: scan) {
            for group in grouper.groups(blocks) { table[kind, default: [:]][group.key] = group.count }
        }
        #expect(table[.definitelyLost] == ["leak_dropped": 100, "leak_list": 1])
        #expect(table[.indirectlyLost] == ["leak_list": 19])
        #expect(table[.possiblyLost] == ["keep_interior": 1])
        #expect(table[.stillReachable] == ["keep_global": 50])
    }

    @Test func noLeaksScanGivesZero() throws {
        let recording = try Self.record("none")
        let scan = try #require(recording.scan)
        #expect(scan.unreachableBlocks == 0)
        #expect(scan.unreachableBytes == 0)
        #expect(scan.unreachable.isEmpty)
        let (leaked, abandoned) = try Self.classified(recording)
        #expect(leaked.isEmpty)
        #expect(abandoned["keep_global"]?.count == 50)
    }

    @Test func anotherThreadsStackIsARoot() throws {
        let recording = try Self.record("thread")
        let scan = try #require(recording.scan)
        #expect(scan.otherThreadsScanned == 1)
        let (leaked, abandoned) = try Self.classified(recording)
        #expect(leaked.isEmpty)
        #expect(abandoned["holder"]?.count == 1)
        #expect(abandoned["holder"]?.bytes == 333)
    }

    @Test func withoutTheFlagThereIsNoScan() throws {
        let recording = try Self.record("leaks", scan: false)
        #expect(recording.scan == nil)
        #expect(HeapFixture.survivors(recording, by: .function)["leak_dropped"]?.count == 100)
    }

    @Test func noScanAfterUnderscoreExit() throws {
        let (run, recording) = try HeapFixture.workload("exit", options: ["--scan-at-exit"])
        #expect(run.status == 3)
        #expect(recording.end?.reason == .immediateExit(3))
        #expect(recording.scan == nil)
    }

    /// memcheck's definitely + indirectly lost bytes in loss records whose stack is in leaks.c.
    /// A definitely-lost record that carries indirect blocks reads "T (D direct, I indirect)
    /// bytes": its direct part counts here, the indirect blocks have their own records.
    static func memcheckLostBytes(_ output: String) -> (bytes: UInt64, blocks: Int) {
        var bytes: UInt64 = 0, blocks = 0
        let records = output.components(separatedBy: "\n").split { line in
            line.range(of: #"^==\d+== $"#, options: .regularExpression) != nil
        }
        let header = try! Regex(#"([\d,]+) (?:\(([\d,]+) direct, [\d,]+ indirect\) )?bytes in ([\d,]+) blocks are (definitely|indirectly) lost"#)
        for record in records {
            guard let first = record.first, let match = first.firstMatch(of: header),
                  record.contains(where: { $0.contains("leaks.c:") }) else { continue }
            let number = { (s: Substring?) in s.flatMap { UInt64($0.replacingOccurrences(of: ",", with: "")) } }
            bytes += number(match.output[2].substring) ?? number(match.output[1].substring) ?? 0
            blocks += Int(number(match.output[3].substring) ?? 0)
        }
        return (bytes, blocks)
    }

    @Test func leakedBytesMatchMemcheck() throws {
        let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let valgrind else {
            print("skipped: valgrind not installed")
            return
        }
        let program = try Self.built.get()
        let memcheck = try HeapFixture.run(valgrind, ["--leak-check=full", "--show-leak-kinds=definite,indirect", program, "leaks"])
        #expect(memcheck.status == 0)
        let lost = Self.memcheckLostBytes(memcheck.stderr)
        #expect(lost.bytes == 7040)
        #expect(lost.blocks == 120)
        let recording = try Self.record("leaks")
        let (leaked, _) = try Self.classified(recording)
        let ours = ["leak_dropped", "leak_list", "keep_global", "keep_interior", "churn", "holder", "main"]
            .compactMap { leaked[$0] }
        #expect(ours.reduce(0) { $0 + $1.bytes } == lost.bytes)
        #expect(ours.reduce(0) { $0 + $1.count } == lost.blocks)

        // Every kind per function, from memcheck's XML report.
        let xmlPath = try HeapFixture.temporaryDirectory().appendingPathComponent("leaks-memcheck.xml").path
        let xml = try HeapFixture.run(valgrind, ["--leak-check=full", "--show-leak-kinds=all", "--xml=yes", "--xml-file=\(xmlPath)", program, "leaks"])
        #expect(xml.status == 0)
        let functions: Set<String> = ["leak_dropped", "leak_list", "keep_global", "keep_interior", "churn"]
        let theirs = HeapLeakKindTests.restricted(try HeapLeakKindTests.memcheckTable(xml: try String(contentsOfFile: xmlPath, encoding: .utf8)), to: functions)
        let kinds = HeapLeakKindTests.restricted(try HeapLeakKindTests.devkitTable(recording), to: functions)
        #expect(kinds == theirs)
        #expect(theirs[.possiblyLost]?["keep_interior"] == HeapLeakKindTests.Tally(blocks: 1, bytes: 200))
    }

    @Test func aScanCutShortOrInconsistentIsNoScan() throws {
        let run = try HeapFixture.record(try Self.built.get(), ["leaks"], options: ["--scan-at-exit"], name: "cut")
        // Its records one by one: the compressed ones expanded (format version 4).
        let bytes = try RecordingReader.plainRecords(try [UInt8](Data(contentsOf: URL(fileURLWithPath: run.recordingPath))), path: "cut")
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var offset = 40, scanOffset: Int?, unreachableRecords = 0
        while offset + 8 <= bytes.count {
            if u32(offset) == 8 { unreachableRecords += 1 }
            if u32(offset) == 9 { scanOffset = offset }
            offset += 8 + u32(offset + 4)
        }
        let scan = try #require(scanOffset)
        #expect(unreachableRecords == 1)
        // Cut before the SCAN record: the UNREACHABLE records alone mean nothing.
        let cut = try RecordingReader.read(Array(bytes[..<scan]), path: "cut")
        #expect(cut.scan == nil)
        // Nothing wrong with the records; only the end record's absence is noted.
        #expect(cut.warnings.map(\.message).allSatisfy { $0.hasPrefix("no end record") })
        // A SCAN whose count disagrees with its UNREACHABLE records is malformed.
        var damaged = bytes
        damaged[scan + 8 + 24] ^= 1
        let recording = try RecordingReader.read(damaged, path: "damaged")
        #expect(recording.scan == nil)
        #expect(recording.warnings.contains { $0.message.contains("scan announces 121 unreachable blocks but its records list 120") })
    }

    /// A recording from a recorder before leak kinds: no LEAK_KIND records and the 56-byte
    /// SCAN payload. It reads with `kinds` nil: unreachable blocks are definitely lost, the rest
    /// still reachable, and the report says so. A LEAK_KIND list that disagrees with its SCAN
    /// record is malformed.
    @Test func scanWithoutLeakKindsReadsAsBefore() throws {
        let run = try HeapFixture.record(try Self.built.get(), ["leaks"], options: ["--scan-at-exit"], name: "old-scan")
        let bytes = try RecordingReader.plainRecords(try [UInt8](Data(contentsOf: URL(fileURLWithPath: run.recordingPath))), path: "old-scan")
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var old = Array(bytes[..<40]), damaged = Array(bytes[..<40])
        var offset = 40, kindRecords = 0
        while offset + 8 <= bytes.count {
            let type = u32(offset), length = u32(offset + 4)
            let record = Array(bytes[offset..<offset + 8 + length])
            switch type {
            case 12:
                kindRecords += 1
                var shorter = record  // one address less than the SCAN record counts
                shorter.removeLast(8)
                shorter.replaceSubrange(4..<8, with: withUnsafeBytes(of: UInt32(length - 8).littleEndian, Array.init))
                damaged += shorter
            case 9:
                #expect(length == 112)
                var short = Array(record[..<(8 + 56)])
                short.replaceSubrange(4..<8, with: withUnsafeBytes(of: UInt32(56).littleEndian, Array.init))
                old += short
                damaged += record
            default:
                old += record
                damaged += record
            }
            offset += 8 + length
        }
        #expect(kindRecords == 2)  // indirectly and possibly lost
        let recording = try RecordingReader.read(old, path: "old")
        let scan = try #require(recording.scan)
        #expect(scan.kinds == nil)
        #expect(scan.unreachableBlocks == 120)
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer()), key: .function)
        let report = try #require(LeakReport(recording: recording, timeline: HeapTimeline(recording), grouper: grouper, top: 10))
        #expect(report.count(.definitelyLost) == 120 && report.count(.indirectlyLost) == 0)
        #expect(report.count(.possiblyLost) == 0 && report.count(.stillReachable) == 51)
        #expect(report.textReport.contains("warning: recorded before leak kinds: indirectly lost blocks are counted as definitely lost, possibly lost ones as still reachable\n"))

        // A kind the format does not define.
        var unknown = bytes
        var at = 40
        while at + 8 <= unknown.count {
            if u32(at) == 12 { unknown[at + 8 + 8] = 7; break }
            at += 8 + u32(at + 4)
        }
        let strange = try RecordingReader.read(unknown, path: "unknown")
        #expect(strange.scan == nil)
        #expect(strange.warnings.contains { $0.message.contains("leak-kind record of unknown kind 7") })

        let bad = try RecordingReader.read(damaged, path: "damaged")
        #expect(bad.scan == nil)
        #expect(bad.warnings.contains { $0.message.contains("scan announces 19 indirectly and 1 possibly lost blocks but its records list 18 and 0") })
    }

    @Test func swiftRetainCyclesAreLeaked() throws {
        let swiftc = "/opt/swift/usr/bin/swiftc"
        guard FileManager.default.isExecutableFile(atPath: swiftc) else {
            print("skipped: swiftc not found at \(swiftc)")
            return
        }
        let program = try HeapFixture.temporaryDirectory().appendingPathComponent("retain-cycle").path
        let build = try HeapFixture.run(swiftc, ["-g", "-Onone", HeapFixture.programs.appendingPathComponent("RetainCycle.swift").path, "-o", program])
        try #require(build.status == 0, "swiftc failed: \(build.stderr)")
        let run = try HeapFixture.record(program, [], options: ["--scan-at-exit"], name: "retain-cycle")
        #expect(run.status == 0)
        let recording = try HeapFixture.load(run.recordingPath)
        let scan = try #require(recording.scan)
        let (leaked, abandoned) = LeakReport.split(HeapTimeline(recording), scan: scan)
        let nodes = leaked.filter { $0.generation == 1 }
        // 500 pairs pointing at each other, nothing else at them: leaked, though never freed by
        // refcounting. The last pair made may still sit in a stale stack slot or register of this
        // unoptimized build (a conservative scan then keeps it): at most one pair abandoned.
        #expect(nodes.count >= 998)
        #expect(nodes.count + abandoned.filter { $0.generation == 1 }.count == 1000)
        // Each pair is a leaked cycle: one node definitely lost, its partner indirectly.
        let kinds = LeakReport.classify(HeapTimeline(recording), scan: scan)
        let definite = kinds[.definitelyLost, default: []].filter { $0.generation == 1 }.count
        let indirect = kinds[.indirectlyLost, default: []].filter { $0.generation == 1 }.count
        #expect(definite == indirect && definite + indirect == nodes.count)
    }

    /// `heapdiff --leaks --html` on leaks.c: the page's tables hold the text report's cells, the
    /// flame graph draws the leaked bytes only, the tags balance and there is no script.
    @Test func leaksHTMLMatchesTheTextReport() throws {
        // leaks.c ignores arguments after the mode; this one lands in the page's headline.
        let hostile = "<script>alert(\"x\")</script> & 'more'"
        let run = try HeapFixture.record(try Self.built.get(), ["leaks", hostile], options: ["--scan-at-exit"], name: "leaks-html")
        #expect(run.status == 0)
        let recording = try HeapFixture.load(run.recordingPath)
        let timeline = HeapTimeline(recording)
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer()), key: .function)
        let report = try #require(LeakReport(recording: recording, timeline: timeline, grouper: grouper, top: 10))
        let leaked = LeakReport.split(timeline, scan: report.scan).leaked
        let graphs = timeline.generations.map { g in FlameGraph(blocks: leaked.filter { $0.generation == g.index }, grouper: grouper) }
        let html = String(decoding: HeapHTMLReport.render(report, leakedGraphs: graphs), as: UTF8.self)
        let text = report.textReport
        #expect(text.contains("  6.3 KiB  100  leak_dropped\n"))
        #expect(text.contains("     32 B    1  leak_list\n"))
        #expect(text.contains("  608 B  19  leak_list\n"))
        #expect(text.contains("  4.7 KiB  50  keep_global\n"))
        #expect(html.contains("<p class=\"scan\">\(report.scanSummary)</p>"))
        #expect(text.contains(report.scanSummary + "\n"))
        #expect(!html.lowercased().contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39;"))
        guard let page = try HTMLStructure.parse(html) else {
            print("skipped the parse: no python3")
            return
        }
        #expect(page.errors == [])
        #expect(page.scriptElements == 0)
        let summary = try #require(page.tables["top"])
        #expect(summary.first == ["gen", "label", "definitely lost", "bytes", "indirectly lost", "bytes",
                                  "possibly lost", "bytes", "still reachable", "bytes"])
        #expect(summary.contains(["0", "start", "101", "6.3 KiB", "19", "608 B", "1", "200 B", "50", "4.7 KiB"]))
        #expect(summary.last == ["", "total", "101", "6.3 KiB", "19", "608 B", "1", "200 B", "50", "4.7 KiB"])
        // Generation 0: a table per kind, with the text report's rows.
        let rows = try #require(page.tables["gen-0"])
        let header = ["bytes", "blocks", "function"]
        #expect(rows == [header, ["6.3 KiB", "100", "leak_dropped"], ["32 B", "1", "leak_list"],
                         header, ["608 B", "19", "leak_list"],
                         header, ["200 B", "1", "keep_interior"],
                         header, ["4.7 KiB", "50", "keep_global"]])
        let tooltips = try #require(page.tooltips["flame-leaked-0"])
        #expect(tooltips.contains("leak_dropped — 100 blocks, 6400 bytes (6.3 KiB)"))
        #expect(tooltips.contains("leak_list — 20 blocks, 640 bytes (640 B)"))
        #expect(tooltips.contains("all — 120 blocks, 7040 bytes (6.9 KiB)"))
        #expect(!tooltips.contains { $0.hasPrefix("keep_global") })
    }

    /// Programs/realloc_race.c: threads realloc, malloc and free blocks of one shared array at
    /// once, in one arena, so an address a realloc gives up is soon another thread's. Every block
    /// left in the array must still be in the live table: exactly 256 abandoned from the
    /// program's two allocating functions, nothing leaked. Several runs: it is a race (one the old
    /// order of realloc's table update lost rarely; see the program's header).
    @Test func concurrentReallocKeepsEveryLiveBlock() throws {
        guard let cc = HeapFixture.compiler() else { throw HeapFixture.FixtureError(message: "no C compiler (cc, gcc or clang)") }
        let program = try HeapFixture.temporaryDirectory().appendingPathComponent("realloc-race").path
        let build = try HeapFixture.run(cc, ["-g", "-O1", "-pthread", HeapFixture.programs.appendingPathComponent("realloc_race.c").path, "-o", program])
        try #require(build.status == 0, "cc failed: \(build.stderr)")
        for attempt in 1...4 {
            let run = try HeapFixture.record(program, [], options: ["--scan-at-exit"], name: "realloc-race-\(attempt)")
            #expect(run.status == 0)
            let recording = try HeapFixture.load(run.recordingPath)
            let scan = try #require(recording.scan)
            #expect(scan.flags.isEmpty)
            // Seqs from per-thread blocks still order every address's events: no allocation
            // lands on a block the replay thinks alive, no free on one it does not know.
            let timeline = HeapTimeline(recording)
            #expect(timeline.missedFrees == 0, "run \(attempt)")
            #expect(timeline.unmatchedFrees == 0, "run \(attempt)")
            let (leaked, abandoned) = try Self.classified(recording)
            #expect(leaked.isEmpty, "run \(attempt): leaked \(leaked.mapValues { $0.count })")
            let kept = (abandoned["churn"]?.count ?? 0) + (abandoned["fill_empty"]?.count ?? 0)
            #expect(kept == 256, "run \(attempt): \(abandoned.mapValues { $0.count })")
        }
    }

    /// 220k live blocks (the table grows past its first size), blocks reached only through a
    /// 2.3 MiB block (scanned in pieces), leaks from threads that ended, a leaked 1 MiB block
    /// that alone points to a 77-byte one.
    @Test func manyBlocks() throws {
        let recording = try Self.record("many")
        let scan = try #require(recording.scan)
        #expect(scan.flags.isEmpty)
        let entries = stride(from: 1, to: 30000, by: 3).reduce(UInt64(0)) { $0 + 16 + UInt64($1 % 4) * 16 }
        #expect(scan.unreachableBlocks == 10000 + 10 + 1 + 20000)
        #expect(scan.unreachableBytes == entries + 10 << 20 + 77 + 20000 * 40)
        let (leaked, abandoned) = try Self.classified(recording)
        #expect(leaked["many_blocks"]?.count == 10011)
        #expect(leaked["many_blocks"]?.bytes == entries + 10 << 20 + 77)
        #expect(leaked["leak_per_thread"]?.count == 20000)
        #expect(leaked["leak_per_thread"]?.bytes == 800_000)
        #expect(leaked.count == 2)
        // The table and its 190000 remaining entries (and glibc's per-thread blocks, made under
        // pthread_create, whose stacks it caches).
        #expect((abandoned["many_blocks"]?.count ?? 0) >= 190_001)
        #expect(abandoned["keep_global"]?.count == 50)
    }
}
