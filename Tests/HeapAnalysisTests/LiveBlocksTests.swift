import DevKitTestSupport
@testable import HeapAnalysis
import Testing

/// `LiveBlocks` against a dictionary: the same answers to every insertion (the block it
/// replaces), removal and the final walk, through the pool's growth, freed slots taken again,
/// addresses allocated twice without a free, frees of unknown addresses and address 0.
struct LiveBlocksTests {
    static func block(_ n: UInt64) -> LiveBlock {
        LiveBlock(seq: n, size: n &* 3, typeMetadata: n % 5 == 0 ? n : 0, generation: Int(n % 7), stack: UInt32(truncatingIfNeeded: n))
    }

    static func same(_ a: LiveBlock?, _ b: LiveBlock?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): a.seq == b.seq && a.size == b.size && a.typeMetadata == b.typeMetadata && a.generation == b.generation && a.stack == b.stack
        default: false
        }
    }

    /// `queue`: frees take the oldest live address (a producer and a consumer), else a random one.
    @Test(arguments: [(UInt64(1), false), (2, true), (3, false)])
    func agreesWithADictionary(seed: UInt64, queue: Bool) {
        var random = SplitMix64(seed: seed)
        let live = LiveBlocks()
        var model: [UInt64: LiveBlock] = [:]
        // Live addresses from `head` on, oldest first (an address allocated again stays once).
        var order: [UInt64] = []
        var head = 0
        var mismatches = 0, replaced = 0
        for n in UInt64(1)...60_000 {
            // Allocations win early (the pool grows past 16,000), frees later (its slots come back).
            let allocating = random.next() % 100 < (n < 30_000 ? 70 : 35)
            if allocating {
                // Mostly fresh addresses; sometimes a live one again (a missed free), or 0.
                let roll = random.next() % 100
                let address: UInt64 = roll == 0 ? 0 : (roll < 3 && head < order.count
                    ? order[head + Int(random.next() % UInt64(order.count - head))] : 0x10 &* (1 + random.next() % (1 << 40)))
                let block = Self.block(n)
                let expected: LiveBlock? = address == 0 ? nil : model[address]
                if !Self.same(live.insert(block, at: address), expected) { mismatches += 1 }
                if expected != nil { replaced += 1 }
                if address != 0 {
                    if model[address] == nil { order.append(address) }
                    model[address] = block
                }
            } else {
                var address = 0x10 &* (1 + random.next() % (1 << 40))  // most likely never allocated
                if head < order.count, random.next() % 20 != 0 {
                    // The oldest, or one at random swapped into the oldest's place first.
                    if !queue { order.swapAt(head, head + Int(random.next() % UInt64(order.count - head))) }
                    address = order[head]
                    head += 1
                }
                if !Self.same(live.remove(at: address), model.removeValue(forKey: address)) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(replaced > 100)
        #expect(live.count == model.count)
        var walked: [UInt64: LiveBlock] = [:]
        live.forEach { address, block in walked[address] = block }
        #expect(walked.count == model.count && walked.allSatisfy { Self.same($0.value, model[$0.key]) })
    }
}
