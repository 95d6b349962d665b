import System
import Testing

/// `ByteSink.writeDecimal` (what `symbolicate --binary` writes every line and column with)
/// against Swift's own decimal text, at the edges and on a spread of values.
@Suite struct ByteSinkTests {
    @Test(arguments: [0, 7, 9, 10, 99, 100, 4_294_967_295, 1_000_000_007, UInt64.max])
    func decimalsAsSwiftWritesThem(_ value: UInt64) {
        var bytes: [UInt8] = []
        bytes.writeDecimal(value)
        #expect(String(decoding: bytes, as: UTF8.self) == String(value))
    }

    @Test func piecesFollowEachOther() {
        var bytes: [UInt8] = Array("a".utf8)
        Array("bc".utf8).withUnsafeBufferPointer { bytes.write($0) }
        bytes.write(UInt8(ascii: ":"))
        bytes.writeDecimal(42)
        #expect(String(decoding: bytes, as: UTF8.self) == "abc:42")
    }
}
