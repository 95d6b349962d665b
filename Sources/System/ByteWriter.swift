/// Standard output through one fixed buffer, going out in 64 KiB writes: every command that
/// answers piece by piece writes through it (symbolicate, atos, plutil, PlistBuddy). Made for
/// a loop that writes a great many short pieces (`devkit symbolicate --binary`: about ten a
/// frame, a million frames): each piece is a bounds check and a copy into memory allocated
/// once, with none of an array's uniqueness and growth checks.
///
/// A struct, so the owner's mutations are checked statically; the owner calls `flush()` and
/// then `deallocate()` (a struct has no deinit).
///
/// ```swift
/// var out = ByteWriter()
/// defer { out.deallocate() }
/// out.write(UInt8(ascii: "x")); out.writeDecimal(42); out.flush()
/// ```
public struct ByteWriter: ByteSink {
    // Inlinable (with the two fields they touch) so each write compiles into its caller
    // across the module boundary: called, they were a tenth of a warm C++ run.
    @usableFromInline let buffer: UnsafeMutableBufferPointer<UInt8>
    @usableFromInline var used = 0
    /// Bytes collected and not yet written.
    public var count: Int { used }

    /// A writer whose buffer holds `capacity` bytes (at least 64).
    public init(capacity: Int = 1 << 16) {
        buffer = .allocate(capacity: max(64, capacity))
    }

    /// Frees the buffer; collected bytes not flushed are lost.
    public func deallocate() {
        buffer.deallocate()
    }

    @inlinable
    public mutating func write(_ byte: UInt8) {
        if used == buffer.count { flush() }
        buffer[used] = byte
        used += 1
    }

    @inlinable
    public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if bytes.count > buffer.count - used {
            flush()
            // A piece larger than the whole buffer goes out as it is.
            if bytes.count > buffer.count {
                try? FileIO.writeStandardOutput(UnsafeRawBufferPointer(bytes))
                return
            }
        }
        guard let base = buffer.baseAddress else { return }
        (base + used).update(from: source, count: bytes.count)
        used += bytes.count
    }

    public mutating func writeUninitialized(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        guard count > 0, let base = buffer.baseAddress else { return }
        if count > buffer.count - used { flush() }
        guard count <= buffer.count else {
            // Larger than the whole buffer: made in memory of its own and written out as it is.
            let piece = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: count)
            defer { piece.deallocate() }
            fill(piece)
            try? FileIO.writeStandardOutput(UnsafeRawBufferPointer(piece))
            return
        }
        fill(UnsafeMutableBufferPointer(start: base + used, count: count))
        used += count
    }

    /// Writes what was collected to standard output now. A closed pipe or a full disk is not
    /// worth stopping an answering loop for: the bytes are dropped.
    public mutating func flush() {
        guard used > 0 else { return }
        try? FileIO.writeStandardOutput(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[0..<used])))
        used = 0
    }

    /// Flushes once at least half the buffer is full.
    @inlinable
    public mutating func flushIfFull() {
        if used >= buffer.count / 2 { flush() }
    }
}
