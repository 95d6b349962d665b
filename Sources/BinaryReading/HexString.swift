/// Lowercase hex of `bytes`, the form build-ids and UUIDs are written in (`1d689bf0…`).
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0xf)])
    }
    return String(decoding: text, as: UTF8.self)
}
