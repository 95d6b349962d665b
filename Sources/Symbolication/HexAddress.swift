/// Addresses as tools print them and users type them: hex digits, `0x` optional, at most 16
/// digits (a 64-bit value; longer input is refused rather than truncated).
public enum HexAddress {
    /// Parses an address given as bytes, as read from a pipe.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var index = 0
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "0"), bytes[1] | 0x20 == UInt8(ascii: "x") { index = 2 }
        guard index < bytes.count, bytes.count - index <= 16 else { return nil }
        var value: UInt64 = 0
        while index < bytes.count {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
            index += 1
        }
        return value
    }

    /// Parses an address given as text (a command-line argument).
    public static func parse(_ text: some StringProtocol) -> UInt64? {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        return UInt64(digits, radix: 16)
    }
}
