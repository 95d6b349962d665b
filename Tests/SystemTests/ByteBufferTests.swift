import DevKitTestSupport
import System
import Testing

/// `ByteBuffer` against `[UInt8]` given the same writes: random pieces, runs and filled space
/// from a buffer far smaller than what is written, so every kind of write crosses a growth.
@Suite struct ByteBufferTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomWritesMatchAnArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var buffer = ByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        for _ in 0..<2_000 {
            let size = Int(random.next() % (random.next() % 8 == 0 ? 5_000 : 40))
            let byte = UInt8(truncatingIfNeeded: random.next())
            switch random.next() % 8 {
            case 0:
                buffer.write(byte)
                expected.write(byte)
            case 1:
                let piece = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(byte)) }
                piece.withUnsafeBufferPointer { buffer.write($0) }
                expected.append(contentsOf: piece)
            case 2:
                buffer.write(repeating: byte, count: size)
                expected.append(contentsOf: repeatElement(byte, count: size))
            case 3:
                let fill: (UnsafeMutableBufferPointer<UInt8>) -> Void = { space in
                    for i in space.indices { space[i] = byte &+ UInt8(truncatingIfNeeded: i) }
                }
                buffer.writeUninitialized(count: size, fill)
                expected.writeUninitialized(count: size, fill)
            case 4:
                buffer.write("<key>")
                expected.append(contentsOf: "<key>".utf8)
            case 5:
                let k = size % 7
                buffer.removeLast(k)
                expected.removeLast(min(k, expected.count))
            case 6:
                let value = random.next() >> (random.next() % 64)
                buffer.writeDecimal(value)
                expected.append(contentsOf: String(value).utf8)
            default:
                if random.next() % 50 == 0 {
                    buffer.removeAll()
                    expected.removeAll()
                }
            }
            #expect(buffer.count == expected.count)
            #expect(buffer.last == expected.last)
        }
        #expect(buffer.array() == expected)
        buffer.withUnsafeBufferPointer { #expect(Array($0) == expected) }
    }

    @Test func removingMoreThanWrittenEmptiesIt() {
        var buffer = ByteBuffer()
        buffer.write("abc")
        buffer.removeLast(10)
        let isEmpty = buffer.isEmpty
        #expect(isEmpty)
        #expect(buffer.last == nil)
        buffer.write("d")
        #expect(buffer.array() == Array("d".utf8))
    }
}
