/// Where text is written as bytes: an array being built, or `ByteWriter`'s buffer on its way
/// to standard output. Renderers written against it serve both without a copy of their logic.
public protocol ByteSink {
    mutating func write(_ byte: UInt8)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension ByteSink {
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
}
