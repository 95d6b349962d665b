/// Lowercase hexadecimal digits as bytes: build ids, UUIDs and digests as devkit writes and
/// caches them.
public enum LowercaseHex {
    /// The bytes `digits` spell; nil when empty, of odd length, or holding anything but
    /// `0-9a-f`.
    public static func bytes<Digits: Collection<UInt8>>(_ digits: Digits) -> [UInt8]? {
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var result: [UInt8] = []
        result.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index != digits.endIndex {
            let next = digits.index(after: index)
            guard let high = value(digits[index]), let low = value(digits[next]) else { return nil }
            result.append(high << 4 | low)
            index = digits.index(after: next)
        }
        return result
    }
}
