import DevKitTestSupport
@testable import Symbolication
import Testing

/// `SampledKeys.upperBound` must give exactly what a plain binary search gives, for every
/// stride, every sub-range (the index searches one depth's run of ranges at a time) and
/// values below, between, on and above the keys, duplicates included.
@Suite struct SampledKeysTests {
    @Test(arguments: [1, 2, 3, 8, 16])
    func sameAnswersAsAPlainSearch(stride: Int) {
        // Two sorted runs laid end to end, as the ranges of depth 0 and depth 1 are.
        var generator = SplitMix64(seed: 2029)
        // Long enough for both levels of samples (coarse ones every 8 × stride records).
        let first = (0..<611).map { _ in UInt64.random(in: 0...500, using: &generator) }.sorted()
        let second = (0..<377).map { _ in UInt64.random(in: 100...300, using: &generator) }.sorted()
        let keys = first + second
        let samples = SampledKeys(keys, stride: stride) { $0 }
        let runs = [0..<first.count, first.count..<keys.count, 0..<0, 5..<6, 3..<40, first.count..<(first.count + 9),
                    100..<200, 63..<(first.count - 1), (first.count + 1)..<(keys.count - 3)]
        for run in runs {
            for value in [0, 1, 99, 100, 150, 250, 300, 301, 499, 500, 501] + keys.map({ Int($0) }) {
                let expected = SortedSearch.upperBound(keys, in: run, of: UInt64(value)) { $0 }
                #expect(samples.upperBound(keys, in: run, of: UInt64(value)) { $0 } == expected, "stride \(stride), run \(run), value \(value)")
            }
        }
    }

    /// `SortedSearch.upperBound` itself against a linear scan, on
    /// every sub-range of a short array with duplicates.
    @Test func plainSearchAgainstALinearScan() {
        let keys: [UInt64] = [1, 3, 3, 3, 5, 8, 8, 13, 21, 21, 34]
        for lower in 0...keys.count {
            for upper in lower...keys.count {
                for value in 0...35 {
                    let expected = (lower..<upper).first { keys[$0] > UInt64(value) } ?? upper
                    #expect(SortedSearch.upperBound(keys, in: lower..<upper, of: UInt64(value)) { $0 } == expected)
                }
            }
        }
    }
}
