@testable import Symbolication
import Testing

/// The small text formats of symbolication: addresses as users type them, UUIDs as Apple
/// prints them.
@Suite struct AddressTextTests {
    @Test(arguments: [
        ("0x401136", UInt64(0x401136)), ("401136", 0x401136), ("0X7F3A12001234", 0x7f3a_1200_1234),
        ("ffffffffffffffff", .max), ("0x0", 0),
    ])
    func addresses(_ text: String, _ value: UInt64) {
        #expect(HexAddress.parse(text) == value)
        #expect(Array(text.utf8).withUnsafeBufferPointer { HexAddress.parse($0) } == value)
    }

    /// Not hex, empty after `0x`, or more than 64 bits: refused, never truncated.
    @Test(arguments: ["", "0x", "not-an-address", "0x12g4", "1ffffffffffffffff", "0x1ffffffffffffffff", "-1"])
    func notAddresses(_ text: String) {
        #expect(HexAddress.parse(text) == nil)
        #expect(Array(text.utf8).withUnsafeBufferPointer { HexAddress.parse($0) } == nil)
    }

    @Test func uuidsAsApplePrintsThem() {
        let bytes: [UInt8] = [0x3f, 0x2a, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd]
        #expect(UUIDText.format(bytes) == "3F2A0011-2233-4455-6677-8899AABBCCDD")
        #expect(UUIDText.format([0xab, 0xcd]) == "ABCD")
        #expect(normalizedIdentifier("3F2A0011-2233-4455-6677-8899AABBCCDD") == "3f2a00112233445566778899aabbccdd")
        #expect(normalizedIdentifier("not hex") == nil)
    }
}
