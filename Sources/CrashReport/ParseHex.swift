/// `0x1f` or `1f` → 31; nil for anything else, including values above 64 bits.
func parseHex(_ text: Substring) -> UInt64? {
    var digits = text
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
    guard !digits.isEmpty, digits.count <= 16 else { return nil }
    return UInt64(digits, radix: 16)
}
