/// Where text is written as bytes: an array being built, or `ByteWriter`'s buffer on its way
/// to standard output, or a `ByteBuffer`. Renderers written against it serve all of them
/// without a copy of their logic.
public protocol ByteSink: ~Copyable {
    mutating func write(_ byte: UInt8)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Writes `count` bytes that `fill` puts in place (all of them), for output whose size is
    /// known before it is made (base64): no piece-by-piece writes.
    mutating func writeUninitialized(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void)
}

extension ByteSink where Self: ~Copyable {
    @inlinable
    public mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// `text`'s UTF-8.
    @inlinable
    public mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// `value` in decimal, written in one piece (digits made backwards in a stack buffer).
    @inlinable
    public mutating func writeDecimal(_ value: UInt64) {
        if value < 10 { write(UInt8(ascii: "0") + UInt8(value)); return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            var rest = value
            while rest > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            write(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}

extension Array: ByteSink where Element == UInt8 {
    @inlinable public mutating func write(_ byte: UInt8) { append(byte) }
    @inlinable public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }

    public mutating func writeUninitialized(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        guard count > 0 else { return }
        let start = self.count
        append(contentsOf: repeatElement(0, count: count))
        withUnsafeMutableBufferPointer { fill(UnsafeMutableBufferPointer(rebasing: $0[start...])) }
    }
}
