@testable import HeapAnalysis
import System
import Testing

/// `heapdiff`'s two-thread paths against the one-thread ones they stand in for: events records
/// validated ahead give the same recording as the record loop alone, on mutated recordings too
/// (the same events, warnings and offsets), and the pipelined replay (`EventPipe`) hands the
/// sink the same events in the same order, whatever their count against the pipe's chunks.
struct TwoThreadPathsTests {
    /// Every event `replay` hands over, short-lived levels included.
    struct Collector: HeapEventSink {
        var events: [HeapEvent] = []
        mutating func receive(_ event: HeapEvent) { events.append(event) }
    }

    /// Everything read from a recording, or the error that refused it: kept as values, not
    /// printed, since the test below reads thousands of damaged copies twice each. What is
    /// derived from these (the timeline, the report) is left out: equal readings give equal ones.
    struct Reading: Equatable {
        var error: String?
        var counts: [Int] = []
        var end: UInt64?
        var marks: [GenerationMark] = []
        var warnings: [String] = []
        var events: [HeapEvent] = []
        var pairs: [CancelledPairs] = []

        func mentions(_ text: String) -> Bool {
            (error ?? "").contains(text) || warnings.contains { $0.contains(text) }
        }
    }

    /// Everything read from `bytes`, with or without validating ahead; the error if it fails.
    static func reading(_ bytes: [UInt8], ahead: Bool) -> Reading {
        do {
            let recording = try RecordingReader.read(MappedFile(copying: bytes, path: "r"), path: "r", validatingAheadFrom: ahead ? 0 : .max)
            var reading = Reading(counts: [recording.eventCount, recording.eventRecords.count],
                                  end: recording.end?.seq, marks: recording.marks, warnings: recording.warnings.map { "\($0.offset) \($0.message)" },
                                  pairs: recording.cancelledPairs)
            recording.forEachEvent { reading.events.append($0) }
            return reading
        } catch {
            return Reading(error: "\(error)")
        }
    }

    @Test(arguments: [(UInt32(5), UInt64(1)), (5, 2), (4, 3)])
    func validatingAheadReadsAsTheRecordLoop(version: UInt32, seed: UInt64) throws {
        let bytes = EventColumnsTests.recording(version: version, seed: seed, events: 300)
        // Ahead, every events record of the whole file is accepted: the loop takes them all.
        let ahead = bytes.withUnsafeBytes { RecordingReader.validateEventsAhead($0, from: 40, columns: version >= 5, minimumBytes: 0) }
        let recording = try RecordingReader.read(bytes, path: "r")
        #expect(ahead.count == recording.eventRecords.count && ahead.count > 5)
        #expect(ahead.allSatisfy { $0.record != nil })
        #expect(Self.reading(bytes, ahead: true) == Self.reading(bytes, ahead: false))
        // Damaged anywhere: the same verdict, including which records are kept and the warning.
        var differing = 0, refused = 0
        for index in stride(from: 40, to: bytes.count, by: version >= 5 ? 1 : 3) {
            for value: UInt8 in [0, 0x80, 0xff] where bytes[index] != value {
                var copy = bytes
                copy[index] = value
                let withAhead = Self.reading(copy, ahead: true)
                if withAhead != Self.reading(copy, ahead: false) { differing += 1 }
                if withAhead.mentions("malformed record") { refused += 1 }
            }
        }
        #expect(differing == 0)
        // The mutations reach the refusals that the loop must name itself.
        #expect(refused > 50, "\(refused) refused")
    }

    /// The pipe on its own: counts around the chunk size and the ring's size, and none.
    @Test(arguments: [0, 1, 1_023, 1_024, 1_025, 8 * 1_024 - 1, 8 * 1_024, 8 * 1_024 + 1, 40_000])
    func pipeHandsOverEveryEventInOrder(count: Int) {
        var collector = Collector()
        EventPipe().run(into: &collector) { writer in
            for seq in 0..<UInt64(count) {
                writer.receive(HeapEvent(seq: seq, kind: .allocation, address: seq &* 16, size: seq, stack: 1, typeMetadata: 0, thread: 2))
            }
        }
        #expect(collector.events.map(\.seq) == (0..<UInt64(count)).map { $0 })
        #expect(collector.events.allSatisfy { $0.address == $0.seq &* 16 && $0.size == $0.seq && $0.thread == 2 })
    }

    /// A recording replayed through the pipe and directly: the same events in the same order.
    @Test(arguments: [(UInt32(5), UInt64(6), UInt64(20_000)), (5, 7, 3_000), (4, 8, 12_000)])
    func pipelinedReplayHandsOverTheSameEvents(version: UInt32, seed: UInt64, events: UInt64) throws {
        let recording = try RecordingReader.read(EventColumnsTests.recording(version: version, seed: seed, events: events), path: "r")
        var direct = Collector(), pipelined = Collector()
        recording.replay(into: &direct, pipelined: false)
        recording.replay(into: &pipelined, pipelined: true)
        #expect(direct.events.count > Int(events) / 2)
        #expect(pipelined.events == direct.events)
    }
}
