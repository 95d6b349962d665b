/// A bounds-checked cursor over a borrowed buffer.
///
/// Every read checks that the bytes exist before touching them and throws a `DecodeError`
/// naming the absolute offset otherwise, so a parser built on it cannot read out of bounds.
/// The cursor does not own its memory: it must not outlive the buffer it was made from.
public struct ByteCursor {
    @usableFromInline let base: UnsafeRawBufferPointer
    /// Absolute offset of `base[0]` in the whole input, for error messages of sub-cursors.
    public let baseOffset: Int
    /// Section name used in errors.
    public let section: String
    /// Position of the next read, relative to `base`. Inlinable like the reads that use it on
    /// every byte, so that inlined in another module they make no call for it.
    @inlinable public var position: Int { cursor }
    @usableFromInline var cursor: Int

    public init(_ buffer: UnsafeRawBufferPointer, section: String, baseOffset: Int = 0) {
        self.base = buffer
        self.section = section
        self.baseOffset = baseOffset
        self.cursor = 0
    }

    /// Number of bytes in the window.
    @inlinable public var count: Int { base.count }
    /// Bytes left after `position`.
    @inlinable public var remaining: Int { base.count - position }
    /// Absolute offset of the next read.
    @inlinable public var offset: Int { baseOffset + position }

    /// An error at the cursor's position (or at `relative`, if given).
    public func error(_ reason: String, at relative: Int? = nil) -> DecodeError {
        DecodeError(section: section, offset: baseOffset + (relative ?? position), reason: reason)
    }

    /// Moves to `relative`, which must lie within the window (the end is allowed).
    public mutating func seek(to relative: Int) throws(DecodeError) {
        guard relative >= 0, relative <= base.count else {
            throw error("offset \(relative) is outside the \(base.count)-byte \(section)", at: position)
        }
        cursor = relative
    }

    /// Skips `n` bytes.
    public mutating func skip(_ n: Int) throws(DecodeError) {
        guard n >= 0, n <= remaining else { throw truncated(needed: n) }
        cursor += n
    }

    /// Always inlined: in a large caller (LineProgram's per-row loop) the optimizer otherwise
    /// left it a call per byte, which cost more than the read.
    @inlinable @inline(__always)
    public mutating func readUInt8() throws(DecodeError) -> UInt8 {
        guard position < base.count else { throw truncated(needed: 1) }
        let byte = base[position]
        cursor += 1
        return byte
    }

    /// Reads an unsigned big- or little-endian integer of `width` bytes (1 to 8).
    @inlinable
    public mutating func readUInt(width: Int, endian: Endianness) throws(DecodeError) -> UInt64 {
        guard width >= 1, width <= 8 else {
            throw error("integer width \(width) is not between 1 and 8")
        }
        guard width <= remaining else { throw truncated(needed: width) }
        // The common widths in one load each (binary plists read several per object; ELF
        // section headers, little-endian, ten fields each, were a twentieth of a warm core run).
        switch (width, endian) {
        case (1, _):
            cursor += 1
            return UInt64(base[position - 1])
        case (2, .little):
            cursor += 2
            return UInt64(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: position - 2, as: UInt16.self)))
        case (4, .little):
            cursor += 4
            return UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: position - 4, as: UInt32.self)))
        case (8, .little):
            cursor += 8
            return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position - 8, as: UInt64.self))
        case (2, .big):
            cursor += 2
            return UInt64(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: position - 2, as: UInt16.self)))
        case (4, .big):
            cursor += 4
            return UInt64(UInt32(bigEndian: base.loadUnaligned(fromByteOffset: position - 4, as: UInt32.self)))
        case (8, .big):
            cursor += 8
            return UInt64(bigEndian: base.loadUnaligned(fromByteOffset: position - 8, as: UInt64.self))
        default:
            break
        }
        var value: UInt64 = 0
        switch endian {
        case .big:
            for i in 0..<width { value = (value << 8) | UInt64(base[position + i]) }
        case .little:
            for i in stride(from: width - 1, through: 0, by: -1) {
                value = (value << 8) | UInt64(base[position + i])
            }
        }
        cursor += width
        return value
    }

    /// Reads a fixed-width integer type.
    @inlinable
    public mutating func read<T: FixedWidthInteger>(_: T.Type, endian: Endianness) throws(DecodeError) -> T {
        let raw = try readUInt(width: MemoryLayout<T>.size, endian: endian)
        return T(truncatingIfNeeded: raw)
    }

    /// Reads an unsigned LEB128 number; fails if it does not fit in 64 bits.
    /// Always inlined: heap recordings and line programs decode millions of them, and in a
    /// large caller the optimizer otherwise leaves a call.
    @inlinable @inline(__always)
    public mutating func readULEB128() throws(DecodeError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while true {
            let byte = try readUInt8()
            guard shift < 64, shift < 63 || byte & 0x7e == 0 else {
                throw error("ULEB128 number does not fit in 64 bits", at: start)
            }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// Reads a signed LEB128 number; fails if it does not fit in 64 bits.
    public mutating func readSLEB128() throws(DecodeError) -> Int64 {
        var result: Int64 = 0
        var shift: Int64 = 0
        let start = position
        while true {
            let byte = try readUInt8()
            guard shift < 64 else { throw error("SLEB128 number does not fit in 64 bits", at: start) }
            result |= Int64(byte & 0x7f) << shift
            shift += 7
            if byte & 0x80 == 0 {
                // Sign-extend from the last byte's bit 6.
                if shift < 64, byte & 0x40 != 0 { result |= -1 << shift }
                return result
            }
        }
    }

    /// Returns the next `n` bytes as a borrowed slice and moves past them.
    @inlinable
    public mutating func readBytes(_ n: Int) throws(DecodeError) -> UnsafeRawBufferPointer {
        guard n >= 0, n <= remaining else { throw truncated(needed: n) }
        let slice = UnsafeRawBufferPointer(rebasing: base[position..<(position + n)])
        cursor += n
        return slice
    }

    /// A cursor over the next `n` bytes (bounded: it cannot read past them); this cursor moves past them.
    public mutating func subCursor(count n: Int, section: String? = nil) throws(DecodeError) -> ByteCursor {
        let start = offset
        let bytes = try readBytes(n)
        return ByteCursor(bytes, section: section ?? self.section, baseOffset: start)
    }

    /// Reads a NUL-terminated string (UTF-8; invalid bytes are replaced) and moves past the NUL.
    /// Fails if no NUL comes before the end of the window.
    public mutating func readCString() throws(DecodeError) -> String {
        String(decoding: try readCStringBytes(), as: UTF8.self)
    }

    /// Reads a NUL-terminated string's bytes as they are (borrowed, without the NUL) and moves
    /// past the NUL: for callers that must not repair invalid UTF-8 (DWARF file names, whose
    /// bytes are joined before they are decoded). Fails if no NUL comes before the end of the window.
    public mutating func readCStringBytes() throws(DecodeError) -> UnsafeRawBufferPointer {
        let rest = UnsafeRawBufferPointer(rebasing: base[position...])
        guard let end = rest.firstIndex(of: 0) else {
            throw error("string has no terminating NUL before the end of the \(section)")
        }
        let bytes = UnsafeRawBufferPointer(rebasing: rest[..<end])
        cursor += end - rest.startIndex + 1
        return bytes
    }

    @usableFromInline
    func truncated(needed: Int) -> DecodeError {
        error("needs \(needed) bytes but only \(remaining) remain (input truncated?)")
    }
}
