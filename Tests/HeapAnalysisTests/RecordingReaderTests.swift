import DevKitTestSupport
import Foundation
import HeapAnalysis
import HeapTestSupport
import Testing

/// The reader on damaged input: every prefix of a real recording, and corrupted bytes.
struct RecordingReaderTests {
    static func smallRecording() throws -> [UInt8] {
        let (_, recording) = try HeapFixture.workload("small")
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: recording.path)))
    }

    @Test func everyPrefixReadsPartiallyOrFailsClearly() throws {
        let bytes = try Self.smallRecording()
        let full = try RecordingReader.read(bytes, path: "small.dkheap")
        #expect(full.warnings.isEmpty)
        #expect(HeapFixture.survivors(full)["malloc 31 bytes"]?.count == 3)
        #expect(HeapFixture.survivors(full)["malloc 62 bytes"]?.count == 2)
        var previousEvents = 0
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            do {
                let partial = try RecordingReader.read(prefix, path: "cut")
                // Past the header a prefix always reads, with a warning unless it ends on a record boundary.
                #expect(length >= 40)
                #expect(partial.eventCount >= previousEvents)
                #expect(partial.eventCount <= full.eventCount)
                previousEvents = partial.eventCount
                let timeline = HeapTimeline(partial)
                _ = HeapReport(recording: partial, timeline: timeline,
                               grouper: HeapGrouper(resolver: FrameResolver(recording: partial), key: .site), horizon: .end, top: 5).textReport
            } catch {
                #expect(length < 40, "prefix of \(length) bytes: \(error)")
                #expect(error.message.contains("magic") || error.message.contains("truncated"))
            }
        }
    }

    /// Every prefix of a recording with cancelled-pair (PAIRS) records: reads or fails
    /// clearly, and never counts more pairs than the whole file.
    @Test func everyPrefixWithCancelledPairs() throws {
        let (_, recording) = try HeapFixture.workload("pairs")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: recording.path)))
        let full = try RecordingReader.read(bytes, path: "pairs.dkheap")
        #expect(full.warnings.isEmpty)
        #expect(full.cancelledPairCount >= 4000)
        let fullAllocated = HeapTimeline(full).generations.reduce(0) { $0 + $1.allocatedCount }
        var previousPairs = 0
        for length in 0..<bytes.count {
            do {
                let partial = try RecordingReader.read(Array(bytes[..<length]), path: "cut")
                #expect(length >= 40)
                #expect(partial.cancelledPairCount >= previousPairs)
                #expect(partial.cancelledPairCount <= full.cancelledPairCount)
                previousPairs = partial.cancelledPairCount
                let timeline = HeapTimeline(partial)
                #expect(timeline.generations.reduce(0) { $0 + $1.allocatedCount } <= fullAllocated)
                _ = HeapReport(recording: partial, timeline: timeline,
                               grouper: HeapGrouper(resolver: FrameResolver(recording: partial), key: .function), horizon: .nextMark, top: 5).textReport
            } catch {
                #expect(length < 40, "prefix of \(length) bytes: \(error)")
            }
        }
        #expect(previousPairs == full.cancelledPairCount)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func corruptedBytesNeverCrash(seed: UInt64) throws {
        var bytes = try Self.smallRecording()
        var generator = SplitMix64(seed: seed)
        for _ in 0..<200 {
            var copy = bytes
            for _ in 0..<4 {
                let index = 40 + Int(generator.next() % UInt64(copy.count - 40))
                copy[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            if let recording = try? RecordingReader.read(copy, path: "fuzz") {
                _ = HeapReport(recording: recording, timeline: HeapTimeline(recording),
                               grouper: HeapGrouper(resolver: FrameResolver(recording: recording), key: .function), horizon: .nextMark, top: 3).jsonValue
            }
        }
        bytes[8] = 9
        #expect(throws: RecordingError.self) { try RecordingReader.read(bytes, path: "v9") }
    }

    /// A recording written byte by byte: a header of `version` and the given records.
    static func handMade(version: UInt32, records: [(type: UInt32, payload: [UInt8])]) -> [UInt8] {
        var bytes = Array("DKITHEAP".utf8) + Self.le(version) + Self.le(UInt32(40)) + Self.le(UInt32(7)) + Self.le(UInt32(1))
        bytes += Self.le(UInt64(0)) + Self.le(UInt32(8)) + Self.le(UInt32(0))
        for record in records { bytes += Self.le(record.type) + Self.le(UInt32(record.payload.count)) + record.payload }
        return bytes
    }

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    /// PAIRS entries: version 2's are (stack, size, count), version 3's add the type; the reader
    /// reads both, and CLOCK records place seqs in time.
    @Test func pairsOfVersionsTwoAndThree() throws {
        let pairsHeader = Self.le(UInt32(9)) + Self.le(UInt32(0)) + Self.le(UInt64(5))
        let mark: [UInt8] = Self.le(UInt64(0)) + Self.le(UInt32(0)) + Array("start".utf8)
        let v2 = Self.handMade(version: 2, records: [(6, mark), (10, pairsHeader + [1, 48, 3, 2, 16, 1])])
        let two = try RecordingReader.read(v2, path: "v2")
        #expect(two.cancelledPairs.map { [$0.stack, UInt32($0.size), UInt32($0.count)] } == [[1, 48, 3], [2, 16, 1]])
        #expect(two.cancelledPairs.allSatisfy { $0.typeMetadata == 0 })
        let clock = Self.le(UInt64(10)) + Self.le(UInt64(3_000_000_000))
        let start = Self.le(UInt64(0)) + Self.le(UInt64(1_000_000_000))
        let v3 = Self.handMade(version: 3, records: [(6, mark), (11, clock), (11, start),
                                                     (10, pairsHeader + [1, 48, 3, 0x80, 0x20, 2, 16, 1, 0])])
        let three = try RecordingReader.read(v3, path: "v3")
        #expect(three.cancelledPairs.map(\.typeMetadata) == [0x1000, 0])
        #expect(three.cancelledPairs.map(\.count) == [3, 1])
        #expect(three.clock.offset(of: 0) == 0)
        #expect(three.clock.offset(of: 5) == 1_000_000_000)
        #expect(three.clock.offset(of: 20) == 2_000_000_000)
        let future = Self.handMade(version: 6, records: [])
        let error = #expect(throws: RecordingError.self) { try RecordingReader.read(future, path: "v6") }
        #expect(error?.description == "v6: offset 0x8: file header: format version 6 is not supported (this devkit reads versions 1 to 5)")
    }

    @Test func notARecording() {
        let error = #expect(throws: RecordingError.self) { try RecordingReader.read(Array("<?xml version".utf8), path: "x") }
        #expect(error?.description == "x: offset 0x0: file header: not a devkit heap recording (no DKITHEAP magic)")
    }
}
