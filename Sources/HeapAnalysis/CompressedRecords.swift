import BinaryReading
import CLibZstd
import HeapRecordFormat
import LazyLibraries
import System

/// A version-4 recording's records laid out as version 3 laid them out: the file header, then
/// every record in file order, plain ones copied and COMPRESSED ones replaced by what they
/// decompress to (FORMAT.md, "Compression"). The record reader then reads that as before.
///
/// Everything is checked before anything is decompressed: each COMPRESSED record announces
/// its decompressed length (at most DKH_MAX_COMPRESSED_INPUT), their sum is bounded by the
/// compressed bytes (DKH_MAX_EXPANSION_BASE + DKH_MAX_EXPANSION_RATIO × compressed), and the
/// zstd window by DKH_ZSTD_WINDOW_LOG_MAX, so a hostile file costs at most that much memory.
/// A record that decompresses to anything else than it announces, or that zstd cannot
/// decode, is an error at its offset: what follows it in the stream cannot be decoded either.
struct CompressedRecords {
    /// The expanded recording (header included).
    let expanded: MappedFile
    /// Problems with the file's own framing (its last record cut short), at file offsets.
    let warnings: [RecordingWarning]
    /// Where each piece of `expanded` came from, ascending by `expandedStart`.
    private let pieces: [Piece]

    private struct Piece {
        var expandedStart: Int
        var fileOffset: Int
        var compressed: Bool
    }

    /// The file offset of `offset` in `expanded`: itself in the header and in plain records;
    /// the COMPRESSED record's own offset inside what it decompressed to (and `true`).
    func fileOffset(ofExpanded offset: Int) -> (offset: Int, inCompressedRecord: Bool) {
        var low = 0, high = pieces.count
        while low < high {
            let middle = (low + high) / 2
            if pieces[middle].expandedStart <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return (offset, false) }
        let piece = pieces[low - 1]
        return piece.compressed ? (piece.fileOffset, true) : (piece.fileOffset + offset - piece.expandedStart, false)
    }

    /// Expands `bytes` (a whole recording whose header, `headerSize` bytes, was read). Throws
    /// at the file offset of the record at fault.
    static func expand(_ bytes: UnsafeRawBufferPointer, headerSize: Int) throws(DecodeError) -> CompressedRecords {
        var cursor = ByteCursor(bytes, section: "compressed records")
        try cursor.skip(headerSize)
        // Pass 1: framing and bounds, nothing allocated beyond the piece list.
        struct Record { var offset: Int; var payload: Range<Int>; var compressed: Bool; var expandedLength: Int }
        var records: [Record] = []
        var warnings: [RecordingWarning] = []
        var expandedTotal = UInt64(headerSize), compressedTotal: UInt64 = 0, announcedTotal: UInt64 = 0
        while cursor.remaining > 0 {
            let offset = cursor.offset
            guard cursor.remaining >= DKH_RECORD_HEADER_SIZE else {
                warnings.append(RecordingWarning(
                    offset: offset, message: "recording ends inside a record header (\(cursor.remaining) of 8 bytes); read up to here"))
                break
            }
            let type = try cursor.read(UInt32.self, endian: .little)
            let length = Int(try cursor.read(UInt32.self, endian: .little))
            guard length <= Int(DKH_MAX_RECORD_LENGTH) else {
                warnings.append(RecordingWarning(offset: offset, message: "record length \(length) exceeds the format's limit; stopped reading here"))
                break
            }
            guard length <= cursor.remaining else {
                warnings.append(RecordingWarning(
                    offset: offset,
                    message: "last record (type \(type)) is cut short: \(length) bytes announced, \(cursor.remaining) present; read up to here"))
                break
            }
            let start = cursor.offset
            if type == DKH_RECORD_COMPRESSED.rawValue {
                guard length > 4 else { throw cursor.error("compressed record of \(length) bytes has no data", at: offset) }
                let announced = Int(try cursor.read(UInt32.self, endian: .little))
                // Invariant: a compressed record decompresses to 1 to DKH_MAX_COMPRESSED_INPUT bytes.
                guard announced > 0, announced <= Int(DKH_MAX_COMPRESSED_INPUT) else {
                    throw DecodeError(section: "compressed record", offset: offset,
                                      reason: "announces \(announced) decompressed bytes (the format's limit is \(DKH_MAX_COMPRESSED_INPUT))")
                }
                try cursor.skip(length - 4)
                records.append(Record(offset: offset, payload: start + 4..<start + length, compressed: true, expandedLength: announced))
                expandedTotal += UInt64(announced)
                announcedTotal += UInt64(announced)
                compressedTotal += UInt64(length) + UInt64(DKH_RECORD_HEADER_SIZE)
            } else {
                try cursor.skip(length)
                records.append(Record(offset: offset, payload: start..<start + length, compressed: false,
                                      expandedLength: Int(DKH_RECORD_HEADER_SIZE) + length))
                expandedTotal += UInt64(DKH_RECORD_HEADER_SIZE) + UInt64(length)
            }
        }
        // Invariant: the compressed records decompress to at most the bound (plain ones are
        // copied: the file's own size bounds them).
        let bound = DKH_MAX_EXPANSION_BASE + DKH_MAX_EXPANSION_RATIO * compressedTotal
        guard announcedTotal <= bound else {
            throw DecodeError(section: "compressed records", offset: headerSize,
                              reason: "would decompress to \(announcedTotal) bytes, more than the reader's bound of \(bound) (\(DKH_MAX_EXPANSION_RATIO) times the compressed bytes, plus 64 MiB)")
        }

        // Pass 2: one allocation of the announced size, filled in file order.
        let total = Int(expandedTotal)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(total, 1), alignment: 16)
        // Written once, whole, by the decompression: in 2 MiB pages where the kernel allows,
        // not 4 KiB faults (cross-thread's 17 MB were two-thirds of heapdiff's page faults).
        FileIO.adviseHugePages(buffer)
        var adopted = false
        defer { if !adopted { buffer.deallocate() } }
        buffer.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: headerSize)
        var pieces: [Piece] = []
        pieces.reserveCapacity(records.count)
        var position = headerSize
        var decoder: OpaquePointer?
        defer { if let decoder { _ = ZSTD_freeDCtx(decoder) } }
        for record in records {
            pieces.append(Piece(expandedStart: position, fileOffset: record.offset, compressed: record.compressed))
            let destination = buffer.baseAddress! + position
            if record.compressed {
                if decoder == nil {
                    decoder = ZSTD_createDCtx()
                    guard let decoder, ZSTD_isError(ZSTD_DCtx_setParameter(decoder, ZSTD_d_windowLogMax, DKH_ZSTD_WINDOW_LOG_MAX)) == 0 else {
                        throw DecodeError(section: "compressed record", offset: record.offset, reason: "zstd's decoder could not be made")
                    }
                }
                try decompress(bytes, record.payload, into: destination, count: record.expandedLength, decoder: decoder!,
                               recordOffset: record.offset)
            } else {
                let header = destination.assumingMemoryBound(to: UInt8.self)
                let raw = bytes.baseAddress! + record.payload.lowerBound - Int(DKH_RECORD_HEADER_SIZE)
                header.update(from: raw.assumingMemoryBound(to: UInt8.self), count: record.expandedLength)
            }
            position += record.expandedLength
        }
        adopted = true
        return CompressedRecords(expanded: MappedFile(adopting: buffer, count: total), warnings: warnings, pieces: pieces)
    }

    /// Decompresses one record's piece of the stream into exactly `count` bytes.
    private static func decompress(_ bytes: UnsafeRawBufferPointer, _ payload: Range<Int>, into destination: UnsafeMutableRawPointer,
                                   count: Int, decoder: OpaquePointer, recordOffset: Int) throws(DecodeError) {
        func damaged(_ reason: String) -> DecodeError {
            DecodeError(section: "compressed record", offset: recordOffset, reason: reason)
        }
        var input = ZSTD_inBuffer(src: bytes.baseAddress! + payload.lowerBound, size: payload.count, pos: 0)
        var output = ZSTD_outBuffer(dst: destination, size: count, pos: 0)
        // Until the piece is consumed, or no step moves (the output is full).
        while input.pos < input.size {
            let before = (input.pos, output.pos)
            let result = ZSTD_decompressStream(decoder, &output, &input)
            if ZSTD_isError(result) != 0 { throw damaged("zstd: \(String(cString: ZSTD_getErrorName(result)))") }
            if before == (input.pos, output.pos) { break }
        }
        // What the decoder still holds beyond the announced bytes.
        var extra: UInt8 = 0
        let more = withUnsafeMutablePointer(to: &extra) { extraPointer -> Int in
            var spill = ZSTD_outBuffer(dst: extraPointer, size: 1, pos: 0)
            var none = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
            let result = ZSTD_decompressStream(decoder, &spill, &none)
            return ZSTD_isError(result) != 0 ? 1 : spill.pos
        }
        guard input.pos == input.size, more == 0 else { throw damaged("decompresses to more than the \(count) bytes it announces") }
        guard output.pos == count else {
            throw damaged("decompresses to \(output.pos) bytes, not the \(count) it announces (a damaged or incomplete block)")
        }
    }
}
