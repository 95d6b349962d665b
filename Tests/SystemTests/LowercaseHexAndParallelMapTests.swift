import System
import Testing

@Suite struct LowercaseHexAndParallelMapTests {
    @Test func hexDigitsBecomeBytes() {
        #expect(LowercaseHex.bytes("00ff7a10".utf8) == [0x00, 0xff, 0x7a, 0x10])
        #expect(LowercaseHex.bytes(Array("0a".utf8)[...]) == [0x0a])
        // Upper case, odd lengths, other characters and nothing at all are not digests.
        for bad in ["0A", "abc", "0g", "", " 0"] {
            #expect(LowercaseHex.bytes(bad.utf8) == nil, "\(bad)")
        }
    }

    @Test(arguments: [1, 2, 5])
    func parallelMapKeepsTheInputOrder(jobs: Int) {
        let items = Array(0..<1_000)
        #expect(ParallelMap.map(items, jobs: jobs) { $0 * 3 } == items.map { $0 * 3 })
        #expect(ParallelMap.map([Int](), jobs: jobs) { $0 }.isEmpty)
        #expect(ParallelMap.map([7], jobs: jobs, chunksPerJob: 100) { $0 + 1 } == [8])
    }
}
