import HeapAnalysis
import Testing

/// The peak and the points of live bytes on recordings written byte by byte (version 2: no
/// clock, so the chart's axis is sequence numbers), where every level is known.
struct HeapPeakTests {
    enum Op {
        case alloc(address: UInt64, size: UInt64)
        case free(address: UInt64)
        case mark(String)
    }

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    static func uleb(_ value: UInt64) -> [UInt8] {
        var value = value, out: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7f)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            out.append(byte)
        } while value != 0
        return out
    }

    /// One thread's events, seq 1, 2, 3, … in order (marks take a seq too), after a start mark at 0.
    static func recording(_ ops: [Op]) throws -> HeapRecording {
        var bytes = Array("DKITHEAP".utf8) + le(UInt32(2)) + le(UInt32(40)) + le(UInt32(7)) + le(UInt32(1))
        bytes += le(UInt64(0)) + le(UInt32(8)) + le(UInt32(0))
        func record(_ type: UInt32, _ payload: [UInt8]) { bytes += le(type) + le(UInt32(payload.count)) + payload }
        record(6, le(UInt64(0)) + le(UInt32(0)) + Array("start".utf8))
        var events: [UInt8] = []
        var seq: UInt64 = 1, lastSeq: UInt64 = 1, lastAddress: UInt64 = 0
        func delta(_ address: UInt64) -> [UInt8] {
            let d = Int64(bitPattern: address &- lastAddress)
            lastAddress = address
            return uleb(UInt64(bitPattern: (d << 1) ^ (d >> 63)))
        }
        for op in ops {
            switch op {
            case .alloc(let address, let size):
                events += [1] + uleb(seq - lastSeq) + delta(address) + uleb(size) + uleb(0)
                lastSeq = seq
            case .free(let address):
                events += [2] + uleb(seq - lastSeq) + delta(address)
                lastSeq = seq
            case .mark(let label):
                record(6, le(seq) + le(UInt32(1)) + Array(label.utf8))
            }
            seq += 1
        }
        record(5, le(UInt32(1)) + le(UInt32(0)) + le(UInt64(1)) + events)
        record(7, le(seq) + le(UInt32(1)) + le(Int32(-1)))
        return try RecordingReader.read(bytes, path: "peaks.dkheap")
    }

    @Test func thePeakAndWhatWasAliveThen() throws {
        // gen 0: A 100 kept; B 1000 and C 50 freed in gen 0 after the peak (A+B+C = 1150 at
        // seq 3); D then raises the level to 450 only, which does not replace it.
        // gen 1: E 900 + A = 1000 alive, below the run's peak; E freed in gen 1.
        let ops: [Op] = [
            .alloc(address: 0x1000, size: 100),   // seq 1  A
            .alloc(address: 0x2000, size: 1000),  // seq 2  B
            .alloc(address: 0x3000, size: 50),    // seq 3  C: peak 1150, 3 blocks
            .free(address: 0x2000),               // seq 4
            .alloc(address: 0x4000, size: 300),   // seq 5  D: 450
            .free(address: 0x3000),               // seq 6
            .free(address: 0x4000),               // seq 7: 100
            .mark("second"),                      // seq 8
            .alloc(address: 0x5000, size: 900),   // seq 9  E: 1000
            .free(address: 0x5000),               // seq 10
        ]
        let timeline = HeapTimeline(try Self.recording(ops))
        #expect(timeline.peak == HeapTimeline.Peak(bytes: 1150, blocks: 3, seq: 3, generation: 0))
        #expect(timeline.generations.map(\.peak.bytes) == [1150, 1000])
        #expect(timeline.generations[1].peak.seq == 9)
        // B and C were freed within their generation, yet the peak's blocks include them.
        let alive = timeline.blocks.filter(timeline.isAliveAtPeak)
        #expect(alive.map(\.size).sorted() == [50, 100, 1000])
        #expect(timeline.survivors(of: 0, until: .peak).map(\.size).sorted() == [50, 100, 1000])
        #expect(timeline.survivors(of: 1, until: .peak).isEmpty)
        // The blocks only the peak needed are there; E (freed in its own generation, after the
        // peak but not alive at it) is not.
        #expect(!timeline.blocks.contains { $0.size == 900 })
        #expect(timeline.points.map(\.bytes).max() == 1150)
        #expect(timeline.points.last?.bytes == 100)
    }

    @Test func aHigherPeakLaterReplacesTheFirst() throws {
        var ops: [Op] = [.alloc(address: 0x10, size: 500), .free(address: 0x10)]
        // A ramp of 100 blocks of 10 bytes, then all freed: peak 1000 at the 100th.
        for i in 0..<100 { ops.append(.alloc(address: 0x1000 + UInt64(i) * 16, size: 10)) }
        for i in 0..<100 { ops.append(.free(address: 0x1000 + UInt64(i) * 16)) }
        let timeline = HeapTimeline(try Self.recording(ops))
        #expect(timeline.peak.bytes == 1000)
        #expect(timeline.peak.blocks == 100)
        #expect(timeline.peak.seq == 102)
        let alive = timeline.blocks.filter(timeline.isAliveAtPeak)
        #expect(alive.count == 100)
        // The 500-byte block, alive at the first high, was dropped when the peak moved on.
        #expect(!timeline.blocks.contains { $0.size == 500 })
    }

    /// Points stay within the limit and keep each slice's highest level: a sawtooth of 10,000
    /// events whose single highest tooth is kept exactly.
    @Test func pointsAreBoundedAndKeepThePeak() throws {
        var ops: [Op] = []
        for i in 0..<2_500 {
            let size: UInt64 = i == 1_717 ? 5_000 : 64
            ops += [.alloc(address: 0x100, size: size), .alloc(address: 0x200, size: 8), .free(address: 0x100), .free(address: 0x200)]
        }
        let recording = try Self.recording(ops)
        let timeline = HeapTimeline(recording, pointLimit: 50)
        #expect(timeline.points.count <= 50)
        #expect(timeline.points.map(\.bytes).max() == 5_008)
        #expect(timeline.peak.bytes == 5_008)
        #expect(zip(timeline.points, timeline.points.dropFirst()).allSatisfy { $0.seq <= $1.seq })
        // No clock in a version-2 recording: the chart counts sequence numbers.
        let chart = LiveBytesChart(timeline) { recording.clock.offset(of: $0).map { Double($0) / 1e9 } }
        #expect(!chart.inSeconds)
        let text = chart.text(width: 40, height: 4).split(separator: "\n")
        #expect(text.count == 6)
        #expect(text[0].hasPrefix("4.9 KiB ┤"))
        #expect(text.last?.hasSuffix("seq \(recording.eventCount)") == true)
        #expect(chart.svg(id: "c").contains("<circle"))
    }
}
