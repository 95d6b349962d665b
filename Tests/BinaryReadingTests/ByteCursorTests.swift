import BinaryReading
import Testing

/// `ByteCursor`: reads within its window, in either byte order, and every failure is a
/// `DecodeError` naming the section and the offset in the whole input.
@Suite struct ByteCursorTests {
    func withCursor<T>(_ bytes: [UInt8], baseOffset: Int = 0, _ body: (inout ByteCursor) throws -> T) rethrows -> T {
        try bytes.withUnsafeBytes { raw in
            var cursor = ByteCursor(raw, section: "test", baseOffset: baseOffset)
            return try body(&cursor)
        }
    }

    @Test func integersInBothByteOrders() throws {
        try withCursor([0x01, 0x02, 0x03, 0x04, 0x01, 0x02, 0x03, 0x04]) { (cursor: inout ByteCursor) throws in
            #expect(try cursor.read(UInt32.self, endian: .little) == 0x0403_0201)
            #expect(try cursor.read(UInt32.self, endian: .big) == 0x0102_0304)
            #expect(cursor.remaining == 0)
        }
        try withCursor([0xff, 0xfe, 0x12, 0x34, 0x56]) { (cursor: inout ByteCursor) throws in
            #expect(try cursor.read(Int16.self, endian: .little) == -257)
            #expect(try cursor.readUInt(width: 3, endian: .big) == 0x12_3456)
        }
    }

    /// Every width in both byte orders at every offset of seeded bytes, against the value
    /// put together byte by byte: the one-load cases (2, 4 and 8 bytes) and the loop agree.
    @Test func everyWidthAtEveryOffset() throws {
        var state: UInt64 = 0x5eed
        let bytes = (0..<64).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for width in 1...8 {
            for offset in 0...(bytes.count - width) {
                let field = bytes[offset..<(offset + width)]
                let big = field.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let little = field.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                try withCursor(bytes) { (cursor: inout ByteCursor) throws in
                    try cursor.skip(offset)
                    #expect(try cursor.readUInt(width: width, endian: .little) == little, "width \(width) at \(offset)")
                    #expect(cursor.position == offset + width)
                }
                try withCursor(bytes) { (cursor: inout ByteCursor) throws in
                    try cursor.skip(offset)
                    #expect(try cursor.readUInt(width: width, endian: .big) == big, "width \(width) at \(offset)")
                }
            }
            // One byte short: refused, the cursor unmoved.
            try withCursor(Array(bytes.prefix(width - 1))) { (cursor: inout ByteCursor) throws in
                #expect(throws: DecodeError.self) { try cursor.readUInt(width: width, endian: .little) }
                #expect(cursor.position == 0)
            }
        }
    }

    @Test func uleb128() throws {
        try withCursor([0x02, 0xe5, 0x8e, 0x26, 0x7f]) { (cursor: inout ByteCursor) throws in
            #expect(try cursor.readULEB128() == 2)
            #expect(try cursor.readULEB128() == 624_485)
            #expect(try cursor.readULEB128() == 127)
        }
        // A continuation bit on the last byte: truncated, not a read past the end.
        try withCursor([0x80, 0x80]) { (cursor: inout ByteCursor) throws in
            #expect(throws: DecodeError.self) { try cursor.readULEB128() }
        }
    }

    @Test func sleb128() throws {
        // DWARF's examples: 2, -2, 127, -127, 128, -128; then -123456.
        try withCursor([0x02, 0x7e, 0xff, 0x00, 0x81, 0x7f, 0x80, 0x01, 0x80, 0x7f, 0xc0, 0xbb, 0x78]) { (cursor: inout ByteCursor) throws in
            for expected: Int64 in [2, -2, 127, -127, 128, -128, -123_456] { #expect(try cursor.readSLEB128() == expected) }
        }
        // Eleven bytes cannot be a 64-bit number; a trailing continuation bit is truncation.
        try withCursor(Array(repeating: 0xff, count: 10) + [0x7f]) { (cursor: inout ByteCursor) throws in
            #expect(throws: DecodeError.self) { try cursor.readSLEB128() }
        }
        try withCursor([0xff]) { (cursor: inout ByteCursor) throws in
            #expect(throws: DecodeError.self) { try cursor.readSLEB128() }
        }
    }

    /// A short read names the offset in the whole input, not in the window.
    @Test func truncationNamesTheOffset() throws {
        try withCursor([1, 2, 3], baseOffset: 0x100) { (cursor: inout ByteCursor) throws in
            _ = try? cursor.readUInt8()
            do throws(DecodeError) {
                _ = try cursor.read(UInt32.self, endian: .little)
                Issue.record("a 4-byte read from 2 bytes must fail")
            } catch {
                #expect(error.section == "test")
                #expect(error.offset == 0x101)
                #expect(error.description.hasPrefix("offset 0x101: test: "))
            }
        }
    }

    /// A sub-cursor cannot read past its own window, and keeps offsets in the whole input.
    @Test func subCursorIsBounded() throws {
        try withCursor([0, 1, 2, 3, 4, 5]) { (cursor: inout ByteCursor) throws in
            _ = try cursor.readUInt8()
            var sub = try cursor.subCursor(count: 2, section: "inner")
            #expect(cursor.offset == 3)
            #expect(try sub.readUInt8() == 1)
            #expect(sub.offset == 2)
            _ = try sub.readUInt8()
            #expect(throws: DecodeError.self) { try sub.readUInt8() }
            #expect(throws: DecodeError.self) { try cursor.subCursor(count: 4) }
        }
    }

    @Test func seekSkipAndStrings() throws {
        try withCursor(Array("ab\0cd".utf8)) { (cursor: inout ByteCursor) throws in
            #expect(try cursor.readCString() == "ab")
            #expect(throws: DecodeError.self) { try cursor.readCString() }
            try cursor.seek(to: 5)
            #expect(throws: DecodeError.self) { try cursor.seek(to: 6) }
            #expect(throws: DecodeError.self) { try cursor.seek(to: -1) }
            try cursor.seek(to: 0)
            #expect(throws: DecodeError.self) { try cursor.skip(6) }
            #expect(throws: DecodeError.self) { try cursor.readBytes(-1) }
        }
    }

    @Test func cStringBytesAreNotRepaired() throws {
        try withCursor([0x61, 0xff, 0, 0, 0x62]) { (cursor: inout ByteCursor) throws in
            #expect(Array(try cursor.readCStringBytes()) == [0x61, 0xff])
            #expect(cursor.position == 3)
            #expect(Array(try cursor.readCStringBytes()) == [])
            #expect(cursor.position == 4)
            // No NUL before the end: fails and leaves the cursor where it was.
            #expect(throws: DecodeError.self) { try cursor.readCStringBytes() }
            #expect(cursor.position == 4)
        }
        try withCursor([0x61, 0xff, 0]) { (cursor: inout ByteCursor) throws in
            #expect(try cursor.readCString() == "a\u{FFFD}")
        }
    }
}
