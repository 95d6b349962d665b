@testable import Symbolication
import Testing

/// `SampledKeys.upperBound` must give exactly what a plain binary search gives, for every
/// stride, every sub-range (the index searches one depth's run of ranges at a time) and
/// values below, between, on and above the keys, duplicates included.
@Suite struct SampledKeysTests {
    @Test(arguments: [1, 2, 3, 8, 16])
    func sameAnswersAsAPlainSearch(stride: Int) {
        // Two sorted runs laid end to end, as the ranges of depth 0 and depth 1 are.
        var generator = SystemRandomNumberGenerator()
        let first = (0..<61).map { _ in UInt64.random(in: 0...500, using: &generator) }.sorted()
        let second = (0..<37).map { _ in UInt64.random(in: 100...300, using: &generator) }.sorted()
        let keys = first + second
        let samples = SampledKeys(keys, stride: stride) { $0 }
        let runs = [0..<first.count, first.count..<keys.count, 0..<0, 5..<6, 3..<40, first.count..<(first.count + 9)]
        for run in runs {
            for value in [0, 1, 99, 100, 150, 250, 300, 301, 499, 500, 501] + keys.map({ Int($0) }) {
                let expected = SortedSearch.upperBound(keys, in: run, of: UInt64(value)) { $0 }
                #expect(samples.upperBound(keys, in: run, of: UInt64(value)) { $0 } == expected, "stride \(stride), run \(run), value \(value)")
            }
        }
    }
}
