@testable import HeapAnalysis
import Testing

/// Issue 15 §5: replay cost bounded by the recording's size, for inputs made here to be
/// hostile. Bounds are counts (probes), not timings.
struct CostBoundTests {
    /// The inverse of the golden-ratio constant the table used to hash with, mod 2⁶⁴: addresses
    /// `i × inverse` all hashed to slot 0 and formed one probe chain.
    static func inverse(of odd: UInt64) -> UInt64 {
        var x = odd  // Newton: each step doubles the correct low bits (3 → 6 → … → 96).
        for _ in 0..<5 { x = x &* (2 &- odd &* x) }
        return x
    }

    @Test func craftedAddressesDoNotFloodTheLiveTable() {
        let inverse = Self.inverse(of: 0x9E37_79B9_7F4A_7C15)
        #expect(inverse &* 0x9E37_79B9_7F4A_7C15 == 1)
        let n = 50_000
        let table = AddressTable<UInt32>(filler: 0)
        for i in 1...n { table.insert(UInt32(truncatingIfNeeded: i), for: UInt64(i) &* inverse) }
        for i in stride(from: 1, through: n, by: 2) { _ = table.removeValue(for: UInt64(i) &* inverse) }
        for i in 1...n { _ = table.value(for: UInt64(i) &* inverse) }
        #expect(table.count == n / 2)
        // 2.5 n operations: a flooded chain costs ~n²/2 probes (over 10⁹); a keyed hash a few per operation.
        #expect(table.probes < 20 * n, "probes: \(table.probes)")
    }

    @Test func sequentialAddressesStayCheap() {
        let n = 50_000
        let table = AddressTable<UInt32>(filler: 0)
        for i in 1...n { table.insert(UInt32(truncatingIfNeeded: i), for: 0x7f00_0000_0000 + UInt64(i) * 16) }
        for i in 1...n { #expect(table.removeValue(for: 0x7f00_0000_0000 + UInt64(i) * 16) == UInt32(i)) }
        #expect(table.count == 0)
        #expect(table.probes < 10 * n, "probes: \(table.probes)")
    }
}
