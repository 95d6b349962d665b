import FrameModel
import HeapAnalysis
import HeapSymbolication
import HeapTestSupport
import Testing

/// A recording of Programs/workload.c symbolicated through `ImageHeapSymbolizer`: modules
/// found by the recording's paths and build-ids, frames from DWARF.
@Suite(.serialized) struct ImageHeapSymbolizerTests {
    @Test func leakingCallSitesResolveToTheirFunctionsAndLines() throws {
        let (run, recording) = try HeapFixture.workload("leaks")
        #expect(run.status == 0)
        let symbolizer = ImageHeapSymbolizer()
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: symbolizer), key: .function)
        let timeline = HeapTimeline(recording)
        let survivors = timeline.blocks.filter(\.isAliveAtEnd)
        #expect(Set(grouper.groups(survivors).map(\.key)).isSuperset(of: ["leak_small", "leak_pages", "leak_grown"]))

        let block = try #require(survivors.first { grouper.key(for: $0) == "leak_small" })
        let site = try #require(grouper.siteFrames(stack: block.stack, at: block.seq, limit: 1).first)
        #expect(site.module == "workload")
        let frame = try #require(site.frames.last)
        #expect(frame.function == "leak_small")
        #expect(frame.source == .debugInfo)
        #expect(frame.file?.hasSuffix("workload.c") == true)
        #expect(frame.line > 0)
        #expect(site.display.hasPrefix("leak_small (workload.c:"))
    }

    @Test func withoutTheSymbolizerFramesStayModuleOffsets() throws {
        let (_, recording) = try HeapFixture.workload("leaks")
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording), key: .function)
        let keys = grouper.groups(HeapTimeline(recording).blocks.filter(\.isAliveAtEnd)).map(\.key)
        #expect(!keys.isEmpty)
        #expect(keys.allSatisfy { $0.hasPrefix("workload+0x") })
    }

    @Test func modulesReadAheadSymbolicateAsOnFirstUse() throws {
        let (_, recording) = try HeapFixture.workload("leaks")
        let survivors = HeapTimeline(recording).blocks.filter(\.isAliveAtEnd)
        let onFirstUse = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer()), key: .site, depth: 3)
        let prepared = ImageHeapSymbolizer()
        let ahead = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: prepared), key: .site, depth: 3)
        let modules = ahead.modulesNear(callSitesWithin: 3)
        #expect(modules.contains { $0.name == "workload" })
        prepared.prepare(modules)
        #expect(ahead.groups(survivors) == onFirstUse.groups(survivors))
        #expect(ahead.groups(survivors).contains { $0.key.hasPrefix("leak_small (workload.c:") })
    }

    @Test func aModuleThatCannotBeReadAheadIsReportedOnlyWhenAskedAbout() throws {
        let (_, recording) = try HeapFixture.workload("leaks")
        var gone = try #require(recording.modules.first { $0.name == "workload" })
        gone.path = try HeapFixture.temporaryDirectory().appendingPathComponent("gone.so").path
        let symbolizer = ImageHeapSymbolizer()
        symbolizer.prepare([gone])
        #expect(symbolizer.problems.isEmpty)
        #expect(symbolizer.frames(in: gone, fileAddress: 0x1000).isEmpty)
        #expect(symbolizer.problems.count == 1)
        #expect(symbolizer.problems.first?.hasPrefix(gone.path + ": ") == true)
        _ = symbolizer.frames(in: gone, fileAddress: 0x1000)
        #expect(symbolizer.problems.count == 1)
    }
}
