/// The 128-bit FNV-1a hash (Fowler, Noll and Vo's public-domain function): small, stable
/// across runs, platforms and Swift versions (unlike `Hasher`, which is seeded per process),
/// and without Foundation or a crypto library, which devkit does not link. It is not
/// cryptographic; fingerprints only need to be stable and rarely collide.
public struct FNV1a128: Sendable {
    static let offsetBasis: UInt128 = 0x6c62272e_07bb0142_62b82175_6295c58d
    static let prime: UInt128 = 0x00000000_01000000_00000000_0000013b

    public private(set) var value: UInt128 = offsetBasis

    public init() {}

    public mutating func combine(bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt128(byte)
            value = value &* Self.prime
        }
    }

    /// Hashes `text` with its length in front, so that the fields of a composite key cannot
    /// run into each other ("ab" + "c" and "a" + "bc" hash differently).
    public mutating func combine(field text: String) {
        var length = UInt64(text.utf8.count).littleEndian
        withUnsafeBytes(of: &length) { combine(bytes: $0) }
        combine(bytes: text.utf8)
    }

    /// 32 lowercase hexadecimal digits, zero-padded.
    public var hexDigest: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 32 - digits.count) + digits
    }
}
