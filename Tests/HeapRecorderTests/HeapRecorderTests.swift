import Foundation
import HeapAnalysis
import HeapSymbolication
import HeapTestSupport
import Testing

/// Records the C workloads in Programs/ with the real recorder and checks exact counts.
@Suite(.serialized) struct HeapRecorderTests {
    @Test func knownLeaksAreCountedExactly() throws {
        let (run, recording) = try HeapFixture.workload("leaks")
        #expect(run.status == 0)
        #expect(recording.end?.reason == .exit)
        #expect(recording.warnings.isEmpty)
        let alive = HeapFixture.survivors(recording)
        #expect(alive["malloc 48 bytes"]?.count == 1000)
        #expect(alive["malloc 48 bytes"]?.bytes == 48_000)
        #expect(alive["malloc 4096 bytes"]?.count == 250)
        #expect(alive["malloc 1048576 bytes"]?.count == 10)
        #expect(alive["malloc 1048576 bytes"]?.bytes == 10 << 20)
        #expect(alive["malloc 100 bytes"] == nil)  // churned
        // The realloc chain: 10 buffers x 11 sizes (1 KiB ... 1 MiB) were allocated; the steps
        // before the last are pairs the recorder cancelled (realloc freed them on the same thread).
        let timeline = HeapTimeline(recording, keepingEveryBlock: true)
        #expect(timeline.blocks.filter { $0.size == 1024 }.count + timeline.shortLived.filter { $0.size == 1024 }.reduce(0) { $0 + $1.count } == 10)
        // churn(100, 100): pairs the recorder cancelled, still counted as allocated.
        #expect(timeline.blocks.filter { $0.size == 100 }.count + timeline.shortLived.filter { $0.size == 100 }.reduce(0) { $0 + $1.count } == 100)
        // Symbolicated through the build-id in the module map: one group per leaking function.
        let functions = HeapFixture.survivors(recording, by: .function)
        #expect(functions["leak_small"]?.count == 1000)
        #expect(functions["leak_small"]?.bytes == 48_000)
        #expect(functions["leak_pages"]?.count == 250)
        #expect(functions["leak_pages"]?.bytes == 250 * 4096)
        #expect(functions["leak_grown"]?.count == 10)
        #expect(functions["leak_grown"]?.bytes == 10 << 20)
        #expect(functions["churn"] == nil)
        let sites = HeapFixture.survivors(recording, by: .site)
        #expect(sites.keys.contains { $0.hasPrefix("leak_small (workload.c:") })
    }

    @Test func eightThreadsOfChurn() throws {
        let (run, recording) = try HeapFixture.workload("threads")
        #expect(run.status == 0)
        var threads = Set<UInt32>()
        var previousSeq: UInt64?
        var ordered = true
        var churned = 0
        recording.forEachEvent { event in
            threads.insert(event.thread)
            if let previousSeq, event.seq <= previousSeq { ordered = false }
            previousSeq = event.seq
            if event.kind == .allocation, event.size == 24 { churned += 1 }
        }
        // Most pairs were cancelled by the recorder (counted, not written as events).
        churned += recording.cancelledPairs.filter { $0.size == 24 }.reduce(0) { $0 + $1.count }
        #expect(churned == 1_600_000)
        #expect(threads.count >= 8)
        #expect(ordered)
        let timeline = HeapTimeline(recording)
        #expect(!timeline.blocks.contains { $0.size == 24 })
        #expect(timeline.blocks.filter { $0.size == 4733 && $0.isAliveAtEnd }.count == 40)
        #expect(timeline.unmatchedFrees == 0)
        #expect(timeline.missedFrees == 0)
        // Eight threads churned at once: each one's short-lived level is known, not their sum,
        // and the report says so.
        let report = HeapReport(recording: recording, timeline: timeline,
                                grouper: HeapGrouper(resolver: FrameResolver(recording: recording), key: .site), horizon: .end, top: 3)
        #expect(report.threadsWithCancelledPairs >= 8)
        #expect(report.textReport.contains("the peak counts each thread's at their highest, not several threads' at once"))
        #expect(timeline.peak.bytes >= 40 * 4733)
    }

    @Test func generationsFromTheAPI() throws {
        let (_, recording) = try HeapFixture.workload("marks")
        #expect(recording.marks.map(\.label) == ["start", "open", "close"])
        #expect(recording.marks.map(\.kind) == [.start, .api, .api])
        #expect(HeapFixture.survivors(recording, generation: 0)["malloc 101 bytes"]?.count == 10)
        // "open" made 20 blocks of 203 that "close" freed: none alive at the end, all at the next mark.
        #expect(HeapFixture.survivors(recording, generation: 1)["malloc 203 bytes"] == nil)
        #expect(HeapFixture.survivors(recording, generation: 1, until: .nextMark)["malloc 203 bytes"]?.count == 20)
        #expect(HeapFixture.survivors(recording, generation: 2)["malloc 305 bytes"]?.bytes == 30 * 305)
        #expect(HeapFixture.survivors(recording, generation: 0)["malloc 305 bytes"] == nil)
    }

    /// Per generation, allocations of `size` as blocks (events) and as cancelled pairs.
    static func allocated(_ timeline: HeapTimeline, generation: Int, size: UInt64) -> (events: Int, pairs: Int) {
        (timeline.blocks.filter { $0.generation == generation && $0.size == size }.count,
         timeline.shortLived.filter { $0.generation == generation && $0.size == size }.reduce(0) { $0 + $1.count })
    }

    @Test func cancelledPairsStillCountAsAllocated() throws {
        let (run, recording) = try HeapFixture.workload("pairs")
        #expect(run.status == 0)
        #expect(recording.warnings.isEmpty)
        #expect(recording.marks.map(\.label) == ["start", "second", "third"])
        let timeline = HeapTimeline(recording, keepingEveryBlock: true)
        func total(_ generation: Int, _ size: UInt64) -> Int {
            let (events, pairs) = Self.allocated(timeline, generation: generation, size: size)
            return events + pairs
        }
        #expect(total(0, 171) == 1000)
        #expect(total(1, 171) == 7)
        #expect(total(1, 175) == 3000)
        #expect(total(2, 179) == 50)
        #expect(total(0, 175) == 0 && total(2, 175) == 0)
        // The churn really was cancelled: (nearly) none of it is in the events.
        #expect(Self.allocated(timeline, generation: 1, size: 175).pairs >= 2900)
        // Blocks freed by another thread are never cancelled: 5 events, alive at no mark.
        #expect(Self.allocated(timeline, generation: 1, size: 177) == (5, 0))
        #expect(HeapFixture.survivors(recording, generation: 1, until: .nextMark)["malloc 177 bytes"] == nil)
        #expect(HeapFixture.survivors(recording, generation: 0)["malloc 173 bytes"]?.count == 4)
        // Generation totals are the events plus the pairs, exactly.
        for generation in timeline.generations {
            let events = timeline.blocks.filter { $0.generation == generation.index }
            let pairs = timeline.shortLived.filter { $0.generation == generation.index }
            #expect(generation.allocatedCount == events.count + pairs.reduce(0) { $0 + $1.count })
            #expect(generation.allocatedBytes == events.reduce(0) { $0 + $1.size } + pairs.reduce(0) { $0 + $1.bytes })
        }
        #expect(timeline.generations[1].allocatedBytes >= 3000 * 175 + 7 * 171 + 5 * 177)
        #expect(timeline.unmatchedFrees == 0)
        // Grouped by function: the cancelled pairs belong to churn's stack.
        let resolver = FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer())
        let grouper = HeapGrouper(resolver: resolver, key: .function)
        let churnStacks = timeline.shortLived.filter { $0.size == 175 }.map(\.stack)
        #expect(!churnStacks.isEmpty)
        for stack in churnStacks {
            #expect(grouper.siteFrames(stack: stack, at: recording.marks[1].seq, limit: 1).first?.functionName == "churn")
        }
    }

    /// A PAIRS record lists its keys in (stack, size, type) order (FORMAT.md, "Cancelled
    /// pairs"), whatever order the pairs were counted in: here the reverse of their stacks'
    /// order, and one stack's sizes largest first.
    @Test func pairCountersAreWrittenInKeyOrder() throws {
        let (run, recording) = try HeapFixture.workload("pair-order")
        #expect(run.status == 0)
        #expect(recording.warnings.isEmpty)
        // A record's entries share its thread and seq.
        var records: [[CancelledPairs]] = []
        for pair in recording.cancelledPairs {
            if let last = records.last?.last, last.thread == pair.thread, last.seq == pair.seq {
                records[records.count - 1].append(pair)
            } else {
                records.append([pair])
            }
        }
        for entries in records {
            for (a, b) in zip(entries, entries.dropFirst()) {
                #expect((a.stack, a.size, a.typeMetadata) < (b.stack, b.size, b.typeMetadata), "\(a) before \(b)")
            }
        }
        // Nothing lost on the way: every tree node and every block of the two sites is counted.
        let timeline = HeapTimeline(recording, keepingEveryBlock: true)
        for size in UInt64(301)...405 where size <= 305 || size > 400 {
            let (events, pairs) = Self.allocated(timeline, generation: 0, size: size)
            #expect(events + pairs == 30, "size \(size)")
        }
        #expect(recording.cancelledPairs.filter { (301...305).contains($0.size) }.reduce(0) { $0 + $1.count } >= 25 * 5)
        let sitesPerRecord = records.map { Set($0.filter { (301...405).contains($0.size) }.map(\.stack)).count }
        #expect(sitesPerRecord.contains(2))
        #expect(records.contains { Set($0.map(\.stack)).count >= 300 && $0.contains { $0.stack > 256 } })
    }

    /// The same program recorded with cancelling and with every event kept
    /// (DEVKIT_HEAP_PAIRS=keep): identical allocated totals per generation and survivors.
    @Test func cancellingChangesNoTotal() throws {
        let (a, b) = try Self.recordedCancellingAndKeeping("pairs")
        #expect(a.cancelledPairCount >= 4000)
        #expect(b.cancelledPairCount == 0)
        #expect(a.eventCount + 2 * a.cancelledPairCount == b.eventCount)
        Self.expectSameTotalsAndSurvivors(HeapTimeline(a), HeapTimeline(b))
    }

    /// Recorded plainly (DEVKIT_HEAP_ZSTD=0), a flush's events record is copied into one piece
    /// with the clock and pair counters after it, which the compressed stream takes where the
    /// columns lie: both recordings read back to the same totals and survivors.
    @Test func plainRecordingReadsAsTheCompressedOne() throws {
        let program = try HeapFixture.built.get().appendingPathComponent("workload").path
        let compressed = try HeapFixture.preloaded(program, ["pairs"], environment: [:], name: "pairs-zstd")
        let plain = try HeapFixture.preloaded(program, ["pairs"], environment: ["DEVKIT_HEAP_ZSTD": "0"], name: "pairs-plain")
        #expect(compressed.status == 0 && plain.status == 0)
        let a = try HeapFixture.load(compressed.recordingPath), b = try HeapFixture.load(plain.recordingPath)
        #expect(a.cancelledPairCount >= 4000 && b.cancelledPairCount >= 4000)
        #expect(a.eventCount + 2 * a.cancelledPairCount == b.eventCount + 2 * b.cancelledPairCount)
        // Plain: the first record after the 40-byte header is not a COMPRESSED one (type 13).
        let plainBytes = try Data(contentsOf: URL(fileURLWithPath: plain.recordingPath))
        let compressedBytes = try Data(contentsOf: URL(fileURLWithPath: compressed.recordingPath))
        #expect(plainBytes.count > 48 && plainBytes[40] != 13 && compressedBytes.count > 48 && compressedBytes[40] == 13)
        Self.expectSameTotalsAndSurvivors(HeapTimeline(a), HeapTimeline(b))
    }

    /// Threads one after another reuse one buffer slot, each ending with allocations still
    /// pending (their buffer is flushed and cleared at the thread's end, the address index slot
    /// by slot) and freeing blocks the one before allocated: nothing of a thread before is
    /// found by a later one's frees, so the totals equal those of every event kept.
    @Test func threadsReusingABufferSlotKeepNothingOfTheOneBefore() throws {
        let (a, b) = try Self.recordedCancellingAndKeeping("serial-threads")
        #expect(a.cancelledPairCount >= 40 * 600)
        Self.expectSameTotalsAndSurvivors(HeapTimeline(a), HeapTimeline(b))
        let timeline = HeapTimeline(a)
        #expect(timeline.unmatchedFrees == 0)
        // 40 threads kept 9 blocks each; each of the last 39 freed 5 of the previous one's.
        #expect(timeline.blocks.filter { (317...333).contains($0.size) && $0.isAliveAtEnd }.count == 40 * 9 - 39 * 5)
        #expect(timeline.blocks.filter { $0.size == 91 || $0.size == 93 }.isEmpty)
    }

    /// A ring of 1,500 blocks replaced oldest first: every free reaches 1,500 allocations back
    /// into the thread's buffer, past cancelled temporaries, and the buffer is squeezed many
    /// times. The squeezed buffer still finds each block's allocation: all but the ring's last
    /// 1,500 blocks and the loader's few cancel (a squeeze that lost the address index wrote
    /// them), and the totals equal those of every event kept.
    @Test func ringFreesStillCancelAcrossSqueezes() throws {
        let (a, b) = try Self.recordedCancellingAndKeeping("ring")
        let replaced = a.cancelledPairs.filter { $0.size == 231 }.reduce(0) { $0 + $1.count }
        let temporaries = a.cancelledPairs.filter { $0.size == 233 }.reduce(0) { $0 + $1.count }
        #expect(temporaries == 20000)
        #expect(replaced >= 20000 - 100, "\(replaced) of 20,000 replaced blocks cancelled")
        Self.expectSameTotalsAndSurvivors(HeapTimeline(a), HeapTimeline(b))
        #expect(HeapTimeline(a).blocks.filter { $0.size == 231 && $0.isAliveAtEnd }.count == 1500)
    }

    /// The workload's `mode` recorded with cancelling, then with every event kept
    /// (DEVKIT_HEAP_PAIRS=keep).
    static func recordedCancellingAndKeeping(_ mode: String) throws -> (HeapRecording, HeapRecording) {
        let program = try HeapFixture.built.get().appendingPathComponent("workload").path
        let cancelled = try HeapFixture.preloaded(program, [mode], environment: [:], name: "\(mode)-cancel")
        let kept = try HeapFixture.preloaded(program, [mode], environment: ["DEVKIT_HEAP_PAIRS": "keep"], name: "\(mode)-keep")
        #expect(cancelled.status == 0 && kept.status == 0)
        return (try HeapFixture.load(cancelled.recordingPath), try HeapFixture.load(kept.recordingPath))
    }

    /// Allocated totals and heap per generation, and every generation's survivors at the end
    /// and at its next mark, the same in both timelines.
    static func expectSameTotalsAndSurvivors(_ ta: HeapTimeline, _ tb: HeapTimeline) {
        #expect(ta.generations.map(\.allocatedCount) == tb.generations.map(\.allocatedCount))
        #expect(ta.generations.map(\.allocatedBytes) == tb.generations.map(\.allocatedBytes))
        #expect(ta.generations.map(\.heapBytesAtEnd) == tb.generations.map(\.heapBytesAtEnd))
        for generation in ta.generations.indices {
            for horizon in [HeapTimeline.Horizon.end, .nextMark] {
                let sa = ta.survivors(of: generation, until: horizon), sb = tb.survivors(of: generation, until: horizon)
                #expect(sa.map(\.size) == sb.map(\.size))
            }
        }
    }

    /// Realloc chains, whose steps (realloc's free of the old block) cancel like plain frees,
    /// against the same program with every event kept (DEVKIT_HEAP_PAIRS=keep): what heapdiff
    /// reports — allocated totals, survivors, heap growth and the peak per generation — is the
    /// same, from a quarter of the events or fewer.
    @Test func reallocChainsCancelWithoutChangingTheReport() throws {
        let (a, b) = try Self.recordedCancellingAndKeeping("realloc-chains")
        // 200 chains of 9 steps (the first a malloc), 5 shrunk to nothing, 20 of 3 steps, 30
        // churned pairs: at least the 8 realloc steps of each of the first 200 chains cancel.
        #expect(a.cancelledPairCount >= 200 * 8)
        #expect(b.cancelledPairCount == 0)
        #expect(a.eventCount + 2 * a.cancelledPairCount == b.eventCount)
        #expect(a.eventCount * 4 <= b.eventCount)
        let ta = HeapTimeline(a), tb = HeapTimeline(b)
        #expect(ta.generations.count == 2)
        Self.expectSameTotalsAndSurvivors(ta, tb)
        #expect(ta.generations.map(\.peak.bytes) == tb.generations.map(\.peak.bytes))
        #expect(ta.peak.bytes == tb.peak.bytes && ta.peak.blocks == tb.peak.blocks)
        // The kept chains' last blocks survive with their last size: 10 of 2,101 bytes, 20 of
        // 3,189; so does the block of 193 bytes whose realloc failed (no free is recorded for
        // it, though the free's seq was taken before the call).
        #expect(HeapFixture.survivors(a, generation: 0)["malloc 2101 bytes"]?.count == 10)
        #expect(HeapFixture.survivors(a, generation: 1)["malloc 3189 bytes"]?.count == 20)
        #expect(HeapFixture.survivors(a, generation: 1)["malloc 193 bytes"]?.count == 1)
    }

    /// The recorder's stack walk (frame rules learned from libunwind, unwind.c) against
    /// unw_backtrace itself (DEVKIT_HEAP_UNWIND=libunwind): every block of the same program has
    /// the same stack, module by module and offset by offset. Every event kept, so every block
    /// has its stack; a C program on one and eight threads, a recursive one (`tree`: 127 stacks
    /// of 7 shapes, each walked again 19 times, which the remembered walks answer), and a Swift
    /// one (swift_allocObject).
    @Test(arguments: ["leaks", "threads", "tree", "swift"]) func stacksEqualLibunwinds(program name: String) throws {
        var program = try HeapFixture.built.get().appendingPathComponent("workload").path
        var arguments = [name]
        if name == "swift" {
            let swiftc = "/opt/swift/usr/bin/swiftc"
            guard FileManager.default.isExecutableFile(atPath: swiftc) else {
                print("skipped: swiftc not found at \(swiftc)")
                return
            }
            program = try HeapFixture.temporaryDirectory().appendingPathComponent("retain-cycle-O").path
            let build = try HeapFixture.run(swiftc, ["-O", HeapFixture.programs.appendingPathComponent("RetainCycle.swift").path, "-o", program])
            try #require(build.status == 0, "\(build.stderr)")
            arguments = []
        }
        func stacks(_ environment: [String: String], _ label: String) throws -> [String] {
            let run = try HeapFixture.preloaded(program, arguments, environment: environment.merging(["DEVKIT_HEAP_PAIRS": "keep"]) { $1 },
                                                name: "unwind-\(name)-\(label)")
            #expect(run.status == 0)
            let recording = try HeapFixture.load(run.recordingPath)
            let resolver = FrameResolver(recording: recording)
            let timeline = HeapTimeline(recording, keepingEveryBlock: true)
            return timeline.blocks.map { block in
                let frames = recording.stacks[block.stack].map { resolver.location(of: $0, at: block.seq).unresolved }
                return "\(block.size) " + frames.joined(separator: ";")
            }.sorted()
        }
        let walked = try stacks([:], "rules"), libunwind = try stacks(["DEVKIT_HEAP_UNWIND": "libunwind"], "libunwind")
        #expect(walked.count >= 1000)
        #expect(walked.count == libunwind.count)
        #expect(walked == libunwind)
    }

    @Test func markBetweenAllocationAndFreeIsNotCancelled() throws {
        let (run, recording) = try HeapFixture.workload("straddle")
        #expect(run.status == 0)
        #expect(recording.marks.map(\.kind) == [.start, .signal, .api])
        #expect(recording.marks.last?.label == "from-thread")
        // Alive at the next mark, freed before the end.
        #expect(HeapFixture.survivors(recording, generation: 0, until: .nextMark)["malloc 211 bytes"]?.count == 20)
        #expect(HeapFixture.survivors(recording, generation: 0)["malloc 211 bytes"] == nil)
        #expect(HeapFixture.survivors(recording, generation: 1, until: .nextMark)["malloc 213 bytes"]?.count == 15)
        #expect(HeapFixture.survivors(recording, generation: 1, until: .nextMark)["malloc 213 bytes"]?.bytes == 15 * 213)
        #expect(!recording.cancelledPairs.contains { $0.size == 211 || $0.size == 213 })
        let timeline = HeapTimeline(recording, keepingEveryBlock: true)
        #expect(Self.allocated(timeline, generation: 2, size: 215).events + Self.allocated(timeline, generation: 2, size: 215).pairs == 9)
        #expect(timeline.unmatchedFrees == 0)
    }

    @Test func freeOfABlockThatChangedHandsIsNotCancelled() throws {
        let (run, recording) = try HeapFixture.workload("handoff")
        #expect(run.status == 0)
        let timeline = HeapTimeline(recording, keepingEveryBlock: true)
        // 20 blocks of 219 bytes, all freed: none alive, none unmatched, none cancelled wrongly.
        #expect(HeapFixture.survivors(recording)["malloc 219 bytes"] == nil)
        #expect(Self.allocated(timeline, generation: 0, size: 219).events + Self.allocated(timeline, generation: 0, size: 219).pairs == 20)
        #expect(timeline.unmatchedFrees == 0)
        #expect(timeline.missedFrees == 0)
    }

    @Test func generationFromTheMarkSignal() throws {
        let (run, recording) = try HeapFixture.workload("signal", [HeapFixture.devkit])
        #expect(run.status == 0)
        #expect(recording.marks.map(\.label) == ["start", "after-signal"])
        #expect(recording.marks.last?.kind == .signal)
        #expect(HeapFixture.survivors(recording, generation: 0)["malloc 111 bytes"]?.count == 7)
        #expect(HeapFixture.survivors(recording, generation: 1)["malloc 223 bytes"]?.count == 9)
        #expect(HeapFixture.survivors(recording, generation: 1)["malloc 111 bytes"] == nil)
    }

    @Test func intervalMarksFromDevkit() throws {
        let (run, recording) = try HeapFixture.workload("interval", options: ["--interval", "50ms"])
        #expect(run.status == 0)
        #expect(recording.marks.first?.kind == .start)
        #expect(recording.marks.dropFirst().allSatisfy { $0.kind == .interval })
        #expect(recording.marks.count >= 2)
        // The block made before the sleep is in the first generation, the one after in a later one.
        let timeline = HeapTimeline(recording)
        let early = timeline.blocks.first { $0.size == 131 }, late = timeline.blocks.first { $0.size == 137 }
        #expect(early?.generation == 0)
        #expect((late?.generation ?? 0) > 0)
    }

    @Test func forkedChildStopsOrFollows() throws {
        let (_, parentOnly) = try HeapFixture.workload("fork")
        let alive = HeapFixture.survivors(parentOnly)
        #expect(alive["malloc 333 bytes"]?.count == 3)
        #expect(alive["malloc 445 bytes"]?.count == 4)
        #expect(alive["malloc 555 bytes"] == nil)

        let (run, parent) = try HeapFixture.workload("fork", options: ["--fork", "follow"])
        #expect(HeapFixture.survivors(parent)["malloc 555 bytes"] == nil)
        let directory = URL(fileURLWithPath: run.recordingPath).deletingLastPathComponent()
        let childFiles = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("fork.dkheap.") }
        try #require(childFiles.count == 1)
        let child = try HeapFixture.load(directory.appendingPathComponent(childFiles[0]).path)
        #expect(HeapFixture.survivors(child)["malloc 555 bytes"]?.count == 5)
        #expect(HeapFixture.survivors(child)["malloc 445 bytes"] == nil)
        #expect(child.header.parentPID == parent.header.pid)
    }

    /// Issue 15 §6: a followed child that calls exec writes its buffered events and an exec
    /// end record first, and the new image records to FILE.PID.2 (FILE.PID is the child's).
    @Test func aFollowedChildThatExecsKeepsBothImages() throws {
        let (run, parent) = try HeapFixture.workload("fork-exec", options: ["--fork", "follow"])
        #expect(run.status == 0)
        #expect(HeapFixture.survivors(parent)["malloc 333 bytes"]?.count == 3)
        #expect(HeapFixture.survivors(parent)["malloc 445 bytes"]?.count == 4)
        let directory = URL(fileURLWithPath: run.recordingPath).deletingLastPathComponent()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("fork-exec.dkheap.") }.sorted()
        try #require(names.count == 2, "\(names)")
        #expect(names[1] == names[0] + ".2")
        let child = try HeapFixture.load(directory.appendingPathComponent(names[0]).path)
        #expect(HeapFixture.survivors(child)["malloc 555 bytes"]?.count == 5)
        #expect(child.end?.reason == .exec)
        let image = try HeapFixture.load(directory.appendingPathComponent(names[1]).path)
        #expect(HeapFixture.survivors(image)["malloc 666 bytes"]?.count == 6)
        #expect(image.end?.reason == .exit)
        #expect(image.header.pid == child.header.pid)
    }

    @Test func dlopenedLibraryLeaksAndUnloads() throws {
        let directory = try HeapFixture.built.get()
        let (run, recording) = try HeapFixture.workload("dlopen", [directory.appendingPathComponent("libplugin.so").path])
        #expect(run.status == 0)
        let plugin = recording.modules.filter { $0.name == "libplugin.so" }
        try #require(plugin.count == 1)
        #expect(plugin[0].unloadedAt != .max)
        #expect(!plugin[0].buildID.isEmpty)
        let byLibrary = HeapFixture.survivors(recording, by: .library)
        #expect(byLibrary["libplugin.so"]?.count == 6)
        #expect(byLibrary["libplugin.so"]?.bytes == 6 * 667)
        // The library is gone from the process but not from the disk: still symbolicated.
        #expect(HeapFixture.survivors(recording, by: .function)["plugin_leak"]?.count == 6)
        #expect(HeapFixture.survivors(recording)["malloc 229 bytes"]?.count == 2)
    }

    @Test func alignedAllocations() throws {
        let (_, recording) = try HeapFixture.workload("aligned")
        let alive = HeapFixture.survivors(recording)
        #expect(alive["malloc 1201 bytes"]?.count == 12)
        #expect(alive["malloc 8192 bytes"]?.count == 3)
        #expect(alive["malloc 512 bytes"] == nil)
        let timeline = HeapTimeline(recording, keepingEveryBlock: true)
        #expect(timeline.blocks.filter { $0.size == 1201 }.allSatisfy { $0.address % 64 == 0 })
        #expect(timeline.blocks.filter { $0.size == 8192 }.allSatisfy { $0.address % 4096 == 0 })
    }

    @Test func crashMidwayKeepsTheRecording() throws {
        let (run, recording) = try HeapFixture.workload("crash")
        #expect(run.status == 128 + 11)
        #expect(recording.end?.reason == .signal(11))
        #expect(recording.marks.map(\.label) == ["start", "before-crash"])
        #expect(HeapFixture.survivors(recording, generation: 0)["malloc 48 bytes"]?.count == 1000)
        #expect(HeapFixture.survivors(recording, generation: 1)["malloc 51 bytes"]?.count == 50)
        #expect(HeapFixture.survivors(recording, generation: 0, by: .function)["leak_small"]?.count == 1000)
    }

    @Test func underscoreExitIsRecorded() throws {
        let (run, recording) = try HeapFixture.workload("exit")
        #expect(run.status == 3)
        #expect(recording.end?.reason == .immediateExit(3))
        #expect(HeapFixture.survivors(recording)["malloc 117 bytes"]?.count == 11)
    }

    @Test func swiftRetainCycleShowsOneTypeWithThousandInstances() throws {
        let swiftc = "/opt/swift/usr/bin/swiftc"
        guard FileManager.default.isExecutableFile(atPath: swiftc) else {
            print("skipped: swiftc not found at \(swiftc)")
            return
        }
        let directory = try HeapFixture.temporaryDirectory()
        let program = directory.appendingPathComponent("retain-cycle").path
        let build = try HeapFixture.run(swiftc, ["-g", "-Onone", HeapFixture.programs.appendingPathComponent("RetainCycle.swift").path,
                                                 "-o", program])
        try #require(build.status == 0, "\(build.stderr)")
        let run = try HeapFixture.record(program, [], name: "retain-cycle")
        #expect(run.status == 0)
        let recording = try HeapFixture.load(run.recordingPath)
        #expect(recording.marks.map(\.label) == ["start", "cycles", "after"])
        let timeline = HeapTimeline(recording)
        let typed = timeline.survivors(of: 1, until: .end).filter { $0.typeMetadata != 0 }
        #expect(typed.count == 1000)
        #expect(Set(typed.map(\.typeMetadata)).count == 1)
        // The metadata's symbol names the class.
        #expect(HeapFixture.survivors(recording, generation: 1)["main.Node"]?.count == 1000)
        #expect(HeapFixture.survivors(recording, generation: 0)["main.Node"] == nil)
        // Scratch instances freed at once: cancelled pairs that keep their class, so grouped
        // by type they are all main.Scratch (none recorded as plain malloc blocks).
        let resolver = FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer())
        let everyBlock = HeapTimeline(recording, keepingEveryBlock: true)
        var scratch = 0
        for pair in everyBlock.shortLived where pair.generation == 2 {
            if pair.typeMetadata != 0, resolver.typeName(metadata: pair.typeMetadata, at: recording.marks[2].seq) == "main.Scratch" {
                scratch += pair.count
            }
        }
        scratch += everyBlock.blocks.filter {
            $0.generation == 2 && $0.typeMetadata != 0 && resolver.typeName(metadata: $0.typeMetadata, at: $0.seq) == "main.Scratch"
        }.count
        #expect(scratch == 2000)
        #expect(recording.cancelledPairCount > 1000)
    }
}
