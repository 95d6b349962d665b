/// A UUID or build-id as the model keeps it: lower-case, without dashes
/// (`4C4C44DD-5555-3144-…` → `4c4c44dd55553144…`). On the bytes when they are ASCII, as every
/// identifier is: a log lists hundreds of images, and `lowercased().filter` works Character by
/// Character. Anything else takes that way, so the result is the same.
func compactIdentifier<Text: StringProtocol>(_ text: Text) -> String {
    let bytes = text.utf8
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return text.lowercased().filter { $0 != "-" } }
    var compact: [UInt8] = []
    compact.reserveCapacity(bytes.count)
    for byte in bytes where byte != UInt8(ascii: "-") {
        compact.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
    }
    return String(decoding: compact, as: UTF8.self)
}
