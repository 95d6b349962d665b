/// A small deterministic random generator (SplitMix64): a test that damages inputs at
/// random positions fails the same way every run.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// Overwrites 1 to `maxFlips` random bytes of `bytes` (which must not be empty), each one
    /// with even odds within the first `headBytes`: damage to headers changes what gets read.
    public mutating func damage(_ bytes: inout [UInt8], maxFlips: UInt64, headBytes: Int) {
        for _ in 0..<Int(next() % maxFlips + 1) {
            let limit = next() % 2 == 0 ? min(bytes.count, headBytes) : bytes.count
            bytes[Int(next() % UInt64(limit))] = UInt8(truncatingIfNeeded: next())
        }
    }
}
