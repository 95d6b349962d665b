import Foundation
import HeapAnalysis
import HeapSymbolication
import HeapTestSupport
import Testing

/// heapdiff's peak of live bytes against valgrind massif's (`--peak-inaccuracy=0`, requested
/// bytes: `--heap-admin=0`) on Programs/peaks.c, whose peaks are designed: in the middle of a
/// run, inside a marked generation, on a second thread, and one short-lived 5 MB block;
/// recorded as `devkit heap record` does by default (cancelling pairs) and with --every-event.
@Suite(.serialized) struct PeakTests {
    static let built: Result<String, any Error> = Result {
        // clang as the issue asks; the system cc otherwise.
        let clang = ["/usr/bin/clang", "/opt/swift/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let cc = clang ?? HeapFixture.compiler() else { throw HeapFixture.FixtureError(message: "no C compiler") }
        let program = try HeapFixture.temporaryDirectory().appendingPathComponent("peaks").path
        let build = try HeapFixture.run(cc, ["-g", "-O1", "-pthread", HeapFixture.programs.appendingPathComponent("peaks.c").path, "-o", program])
        guard build.status == 0 else { throw HeapFixture.FixtureError(message: "\(cc) failed: \(build.stderr)") }
        return program
    }

    static let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// massif's peak snapshot's heap bytes (massif.out: `mem_heap_B=` of the snapshot whose
    /// `heap_tree=peak`), checked to be the largest of all snapshots, and the bytes its tree
    /// gives glibc's `allocate_dtv` then.
    static func massifPeak(_ mode: String) throws -> (bytes: UInt64, dtv: UInt64)? {
        guard let valgrind else {
            print("skipped: valgrind not installed (Scripts/install-deps installs it)")
            return nil
        }
        let out = try HeapFixture.temporaryDirectory().appendingPathComponent("massif.out.\(mode)").path
        let run = try HeapFixture.run(valgrind, ["--tool=massif", "--peak-inaccuracy=0", "--threshold=0", "--heap-admin=0",
                                                 "--massif-out-file=\(out)", try built.get(), mode])
        try #require(run.status == 0, "\(run.stderr)")
        var peak: UInt64?
        var largest: UInt64 = 0
        var heap: UInt64 = 0
        var dtv: UInt64 = 0
        var inPeakTree = false
        for line in try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("mem_heap_B=") { heap = UInt64(line.dropFirst("mem_heap_B=".count)) ?? 0; largest = max(largest, heap) }
            if line.hasPrefix("snapshot=") { inPeakTree = false }
            if line == "heap_tree=peak" { peak = heap; inPeakTree = true }
            // A tree node: `  nK: BYTES 0xADDR: function (file:line)`.
            if inPeakTree, line.contains(": allocate_dtv ("), let bytes = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) }) {
                dtv = max(dtv, bytes)
            }
        }
        #expect(peak == largest)
        return peak.map { ($0, dtv) }
    }

    static func devkitPeak(_ mode: String, everyEvent: Bool) throws -> (HeapTimeline, HeapRecording) {
        let run = try HeapFixture.record(try built.get(), [mode], options: everyEvent ? ["--every-event"] : [], name: "peaks-\(mode)")
        try #require(run.status == 0, "\(run.stderr)")
        let recording = try HeapFixture.load(run.recordingPath)
        return (HeapTimeline(recording), recording)
    }

    /// What the peak holds is what the replay says was alive then (recorded blocks, plus the
    /// short-lived level the recorder wrote for cancelled pairs), and the points keep it.
    static func checkConsistent(_ timeline: HeapTimeline) {
        let alive = timeline.blocks.filter(timeline.isAliveAtPeak)
        #expect(alive.reduce(0) { $0 + $1.size } + timeline.peak.shortLivedBytes == timeline.peak.bytes)
        #expect(alive.count + timeline.peak.shortLivedBlocks == timeline.peak.blocks)
        #expect(timeline.points.map(\.bytes).max() == timeline.peak.bytes)
        #expect(timeline.points.count <= 1_000)
        let generation = timeline.generations[timeline.peak.generation]
        #expect(generation.peak == timeline.peak)
        #expect(timeline.generations.allSatisfy { $0.peak.bytes <= timeline.peak.bytes })
    }

    @Test(arguments: ["ramp", "generations", "threads", "spike"], [false, true])
    func peakEqualsMassif(mode: String, everyEvent: Bool) throws {
        guard let massif = try Self.massifPeak(mode) else { return }
        let (timeline, recording) = try Self.devkitPeak(mode, everyEvent: everyEvent)
        // A running thread's DTV (glibc's allocate_dtv) has a slot per TLS module, and the
        // preloaded recorder is one more: it is larger under devkit than under valgrind.
        // Everything else alive at the peak is the program's and must be equal.
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer()), key: .function)
        let dtv = grouper.groups(timeline.blocks.filter(timeline.isAliveAtPeak)).first { $0.key == "allocate_dtv" }?.bytes ?? 0
        #expect((dtv == 0) == (massif.dtv == 0))
        #expect(timeline.peak.bytes - dtv == massif.bytes - massif.dtv,
                "\(mode): devkit \(timeline.peak.bytes) (DTV \(dtv)), massif \(massif.bytes) (DTV \(massif.dtv))")
        if massif.dtv == 0 { #expect(timeline.peak.bytes == massif.bytes) }
        Self.checkConsistent(timeline)
    }

    @Test func designedPeaksAreFoundWhereTheyAre() throws {
        let (ramp, _) = try Self.devkitPeak("ramp", everyEvent: true)
        #expect(ramp.peak.bytes == 100 * 1000 + 50 * 20000)
        #expect(ramp.peak.blocks == 150)
        // The generation "spike" holds the peak: 64 x 3000 B of "build", 200 x 4096 B and the
        // realloc chain's 256000 B block.
        let (generations, recording) = try Self.devkitPeak("generations", everyEvent: false)
        #expect(recording.marks.map(\.label) == ["start", "build", "spike", "teardown"])
        #expect(generations.peak.generation == 2)
        #expect(generations.peak.bytes == 64 * 3000 + 200 * 4096 + 256_000)
        #expect(generations.generations[1].peak.bytes == 64 * 3000)
        Self.checkConsistent(generations)
    }

    /// Without --every-event a block made and freed by one thread before its buffer is written
    /// is only counted, not recorded; the level it reached is, so the 5 MB spike is the peak,
    /// shown as a group of its own (no stack).
    @Test func aCancelledSpikeIsInTheDefaultPeak() throws {
        let (timeline, recording) = try Self.devkitPeak("spike", everyEvent: false)
        #expect(timeline.shortLived.contains { $0.size == 5 << 20 })
        #expect(timeline.peak.bytes == 20 * 256 + 5 << 20)
        #expect(timeline.peak.shortLivedBytes == 5 << 20)
        #expect(timeline.peak.shortLivedBlocks == 1)
        #expect(!timeline.blocks.contains { $0.size == 5 << 20 })
        let report = try HeapFixture.run(HeapFixture.devkit, ["heapdiff", recording.path])
        #expect(report.stdout.contains("peak: 5.0 MiB in 21 blocks at "))
        #expect(report.stdout.contains("  5.0 MiB   1  \(HeapReport.shortLivedGroup)\n"))
        #expect(!report.stdout.contains("note:"))
    }
}
