/// Bytes being built in memory it owns and grows, for writers that make a great many short
/// pieces: `XMLPlistWriter` appends about eight per key and value. `[UInt8]` checks uniqueness
/// and capacity through a generic `append(contentsOf:)` on each piece (a quarter of converting
/// a binary plist to XML); here a piece is one capacity check and a copy, as in `ByteWriter`,
/// whose fixed buffer goes to standard output instead.
///
/// Noncopyable: two copies would share, and one's growth free, the same memory.
public struct ByteBuffer: ~Copyable, ByteSink {
    // Inlinable (with the fields they touch) so each write compiles into its caller.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used = 0

    /// Bytes written so far.
    public var count: Int { used }
    public var isEmpty: Bool { used == 0 }

    /// An empty buffer with room for `capacity` bytes before it first grows.
    public init(capacity: Int = 4096) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inlinable
    public mutating func write(_ byte: UInt8) {
        if used == capacity { grow(toHold: 1) }
        base[used] = byte
        used &+= 1
    }

    @inlinable
    public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if bytes.count > capacity &- used { grow(toHold: bytes.count) }
        (base + used).update(from: source, count: bytes.count)
        used &+= bytes.count
    }

    /// `text`'s bytes (tags and other fixed spellings).
    @inlinable
    public mutating func write(_ text: StaticString) {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `byte` `count` times (indentation).
    @inlinable
    public mutating func write(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        if count > capacity &- used { grow(toHold: count) }
        (base + used).update(repeating: byte, count: count)
        used &+= count
    }

    @inlinable
    public mutating func writeUninitialized(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        guard count > 0 else { return }
        if count > capacity &- used { grow(toHold: count) }
        fill(UnsafeMutableBufferPointer(start: base + used, count: count))
        used &+= count
    }

    /// The last byte written, if any.
    public var last: UInt8? { used > 0 ? base[used - 1] : nil }

    /// Forgets the last `k` bytes written (at most all of them).
    public mutating func removeLast(_ k: Int = 1) {
        used -= min(max(k, 0), used)
    }

    /// Forgets everything written, keeping the memory.
    public mutating func removeAll() {
        used = 0
    }

    /// The bytes written so far.
    public func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeBufferPointer(start: base, count: used))
    }

    /// The bytes written so far as an array (a copy).
    public func array() -> [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: used))
    }

    /// Moves the bytes to memory with room for at least `extra` more; the capacity at least
    /// doubles, so appending n bytes copies O(n) in all.
    @usableFromInline
    mutating func grow(toHold extra: Int) {
        let (needed, overflow) = used.addingReportingOverflow(extra)
        precondition(!overflow, "ByteBuffer: size overflows Int")
        let newCapacity = max(needed, capacity <= Int.max / 2 ? capacity * 2 : Int.max)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: used)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
