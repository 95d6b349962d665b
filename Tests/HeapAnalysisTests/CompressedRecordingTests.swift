import CLibZstd
import Foundation
import HeapAnalysis
import HeapRecordFormat
import HeapTestSupport
import Testing

/// Format version 4: COMPRESSED records (one zstd stream, a flush per record) read like the
/// plain records they hold; damaged ones are one-line errors at their offset; hostile ones are
/// refused before anything is decompressed.
struct CompressedRecordingTests {
    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { RecordingReaderTests.le(value) }

    static func uleb(_ value: UInt64) -> [UInt8] { HeapPeakTests.uleb(value) }

    static func record(_ type: UInt32, _ payload: [UInt8]) -> [UInt8] { le(type) + le(UInt32(payload.count)) + payload }

    /// Whole records of a small program: a start mark, a stack, two threads' events (three
    /// blocks allocated, one freed), their cancelled pairs, a clock and an end.
    static let records: [[UInt8]] = {
        let mark = record(6, le(UInt64(0)) + le(UInt32(0)) + Array("start".utf8))
        let stack = record(4, le(UInt32(1)) + le(UInt32(2)) + le(UInt64(0x401000)) + le(UInt64(0x402000)))
        // ALLOC seq 1 at 0x1000 (32 B), ALLOC seq 2 at 0x2000 (64 B), FREE seq 3 of 0x1000.
        let events = le(UInt32(7)) + le(UInt32(0)) + le(UInt64(1))
            + [1] + uleb(0) + uleb(0x2000) + uleb(32) + uleb(1)
            + [1] + uleb(1) + uleb(0x2000) + uleb(64) + uleb(1)
            + [2] + uleb(1) + uleb(0x1fff)
        let other = le(UInt32(8)) + le(UInt32(0)) + le(UInt64(4)) + [1] + uleb(0) + uleb(0xc000) + uleb(48) + uleb(1)
        let pairs = record(10, le(UInt32(7)) + le(UInt32(0)) + le(UInt64(2)) + uleb(1) + uleb(16) + uleb(5) + uleb(0))
        let clock = record(11, le(UInt64(5)) + le(UInt64(2_000_000)))
        let end = record(7, le(UInt64(5)) + le(UInt32(1)) + le(Int32(-1)))
        return [mark, stack, record(5, events) + clock, record(5, other) + pairs, end]
    }()

    /// Each element of `pieces` (whole records) as one COMPRESSED record of one zstd stream.
    static func compressed(_ pieces: [[UInt8]], level: Int32 = 3) -> [[UInt8]] {
        let context = ZSTD_createCCtx()!
        defer { _ = ZSTD_freeCCtx(context) }
        _ = ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        return pieces.map { piece in
            var out = [UInt8](repeating: 0, count: ZSTD_compressBound(piece.count) + 64)
            let written = piece.withUnsafeBytes { source in
                out.withUnsafeMutableBytes { destination -> Int in
                    var input = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
                    var output = ZSTD_outBuffer(dst: destination.baseAddress, size: destination.count, pos: 0)
                    while input.pos < input.size { _ = ZSTD_compressStream2(context, &output, &input, ZSTD_e_continue) }
                    var none = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
                    while ZSTD_compressStream2(context, &output, &none, ZSTD_e_flush) != 0 {}
                    return output.pos
                }
            }
            return record(13, le(UInt32(piece.count)) + Array(out[..<written]))
        }
    }

    static func file(version: UInt32 = 4, _ records: [[UInt8]]) -> [UInt8] {
        RecordingReaderTests.handMade(version: version, records: []) + records.flatMap { $0 }
    }

    /// What a report shows of a recording, for comparing two readings.
    static func summary(_ recording: HeapRecording) -> String {
        let timeline = HeapTimeline(recording)
        let report = HeapReport(recording: recording, timeline: timeline,
                                grouper: HeapGrouper(resolver: FrameResolver(recording: recording), key: .site), horizon: .end, top: 10)
        return "\(recording.eventCount) \(recording.cancelledPairCount) \(recording.end.map { "\($0.seq)" } ?? "-")\n" + report.textReport
    }

    @Test func compressedReadsAsPlain() throws {
        let plain = try RecordingReader.read(Self.file(Self.records), path: "r")
        #expect(plain.warnings.isEmpty)
        #expect(plain.eventCount == 4)
        #expect(plain.cancelledPairCount == 5)
        let survivors = HeapFixture.survivors(plain)
        #expect(survivors.keys.sorted() == ["malloc 48 bytes", "malloc 64 bytes"])
        #expect(survivors.values.map(\.count) == [1, 1])
        let expected = Self.summary(plain)
        // One record per piece, all in one piece, and plain records between compressed ones.
        let each = try RecordingReader.read(Self.file(Self.compressed(Self.records)), path: "r")
        let whole = try RecordingReader.read(Self.file(Self.compressed([Self.records.flatMap { $0 }])), path: "r")
        let pieces = Self.compressed([Self.records[0], Self.records[2], Self.records[4]])
        let mixed = try RecordingReader.read(Self.file([pieces[0], Self.records[1], pieces[1], Self.records[3], pieces[2]]), path: "r")
        for recording in [each, whole, mixed] {
            #expect(recording.warnings.isEmpty)
            #expect(Self.summary(recording) == expected)
        }
        // A later version is refused in one line.
        let error = #expect(throws: RecordingError.self) { try RecordingReader.read(Self.file(version: 6, Self.records), path: "v6") }
        #expect(error?.description == "v6: offset 0x8: file header: format version 6 is not supported (this devkit reads versions 1 to 5)")
    }

    /// Every prefix of a compressed recording reads up to its last complete record (a warning
    /// at the cut record's offset) and never counts more than the whole.
    @Test func everyPrefixOfACompressedRecording() throws {
        let pieces = Self.compressed(Self.records)
        let bytes = Self.file(pieces)
        var boundaries: [Int] = [40]
        for piece in pieces { boundaries.append(boundaries.last! + piece.count) }
        var previous = 0
        for length in 40..<bytes.count {
            let partial = try RecordingReader.read(Array(bytes[..<length]), path: "cut")
            #expect(partial.eventCount >= previous && partial.eventCount <= 4)
            previous = partial.eventCount
            if let cut = boundaries.lastIndex(where: { $0 <= length }), boundaries[cut] != length {
                #expect(partial.warnings.first?.offset == boundaries[cut], "prefix of \(length)")
                #expect(partial.warnings.first?.message.contains("cut short") == true || partial.warnings.first?.message.contains("record header") == true)
            }
        }
        #expect(previous == 4)
    }

    /// A record whose bytes zstd cannot decode, or that decompresses to another length than it
    /// announces, is an error at that record's offset (the rest of the stream is undecodable).
    @Test func damagedCompressedRecordIsAnErrorAtItsOffset() throws {
        let pieces = Self.compressed(Self.records)
        let third = 40 + pieces[0].count + pieces[1].count
        // The first record's zstd frame magic broken.
        var badMagic = Self.file(pieces)
        badMagic[40 + 12] ^= 0xff
        let magic = #expect(throws: RecordingError.self) { try RecordingReader.read(badMagic, path: "m.dkheap") }
        #expect(magic?.offset == 40)
        #expect(magic?.description.hasPrefix("m.dkheap: offset 0x28: compressed record: zstd: ") == true)
        #expect(magic?.description.contains("\n") == false)
        // The third record announces one byte more than it holds, then one byte fewer.
        for delta: Int32 in [1, -1] {
            var wrongLength = Self.file(pieces)
            let announced = Int32(Self.records[2].count) + delta
            wrongLength.replaceSubrange(third + 8..<third + 12, with: Self.le(announced))
            let error = #expect(throws: RecordingError.self) { try RecordingReader.read(wrongLength, path: "l.dkheap") }
            #expect(error?.offset == third)
            #expect(error?.message.contains("announces") == true, "\(String(describing: error))")
        }
    }

    /// Announced lengths are checked before anything is allocated: one over the per-record
    /// limit, and many small records announcing the limit each (a decompression bomb).
    @Test func hostileLengthsAreRefusedBeforeDecompressing() throws {
        let tooLong = Self.record(13, Self.le(UInt32(DKH_MAX_COMPRESSED_INPUT) + 1) + [0x28, 0xb5, 0x2f, 0xfd])
        let one = #expect(throws: RecordingError.self) { try RecordingReader.read(Self.file([tooLong]), path: "big") }
        #expect(one?.offset == 40)
        #expect(one?.message.contains("format's limit") == true)
        let bomb = Self.record(13, Self.le(UInt32(DKH_MAX_COMPRESSED_INPUT)) + [0x28, 0xb5, 0x2f, 0xfd, 0])
        let many = #expect(throws: RecordingError.self) {
            try RecordingReader.read(Self.file(Array(repeating: bomb, count: 100)), path: "bomb")
        }
        #expect(many?.message.contains("more than the reader's bound") == true)
    }

    /// The recorder's own output: COMPRESSED records only after the header, smaller than the
    /// records they expand to, and read without warnings (RecordingReaderTests checks what it holds).
    @Test func recorderWritesCompressedRecords() throws {
        let (_, recording) = try HeapFixture.workload("pairs")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: recording.path)))
        var offset = 40, compressed = 0, expanded = 0
        while offset + 8 <= bytes.count {
            let type = bytes[offset..<offset + 4].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) }
            let length = bytes[offset + 4..<offset + 8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            #expect(type == 13, "record of type \(type) at \(offset)")
            if type == 13 {
                compressed += 8 + length
                expanded += bytes[offset + 8..<offset + 12].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            }
            offset += 8 + length
        }
        #expect(offset == bytes.count)
        #expect(recording.header.version == 5)
        #expect(recording.warnings.isEmpty)
        // A small recording of many small writes: each write's framing (12 bytes and zstd's
        // block header) eats most of the gain; large ones shrink 10 to 100 times (RESULTS.md).
        #expect(compressed < expanded, "\(compressed) compressed bytes for \(expanded)")
    }
}
