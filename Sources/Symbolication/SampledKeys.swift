/// Every `stride`-th key of a large sorted array (several sorted runs laid end to end, such
/// as the ranges of each depth), kept in a small array of its own: a search first finds the
/// block in the samples, which stay in cache, and then touches the large array only inside
/// one block of `stride` records. Random addresses made the last levels of a plain binary
/// search over the 24- and 32-byte records cache misses, most of a warm lookup's time.
/// `AddressIndex` keeps its samples in `IndexBlocks` (filled as each block is checked) and
/// searches them through the static `upperBound`.
struct SampledKeys {
    let stride: Int
    /// `keys[i]` is the key of record `i * stride`.
    let keys: [UInt64]

    init<Records: RandomAccessCollection>(_ records: Records, stride: Int, key: (Records.Element) -> UInt64) where Records.Index == Int {
        self.stride = stride
        keys = Swift.stride(from: 0, to: records.count, by: stride).map { key(records[$0]) }
    }

    /// `SortedSearch.upperBound(records, in: range, of: value, key: key)`, through the samples:
    /// `records[range]` must be sorted by `key` and be the records these samples were taken of.
    @inline(__always)
    func upperBound<Records: RandomAccessCollection>(_ records: Records, in range: Range<Int>, of value: UInt64,
                                                      key: (Records.Element) -> UInt64) -> Int where Records.Index == Int {
        keys.withUnsafeBufferPointer { Self.upperBound(keys: $0, stride: stride, records, in: range, of: value, key: key) }
    }

    /// The search itself, over samples in any storage: `keys[i]` must be the key of record
    /// `i * stride` for every sample inside `range`.
    @inline(__always)
    static func upperBound<Records: RandomAccessCollection>(keys: UnsafeBufferPointer<UInt64>, stride: Int, _ records: Records, in range: Range<Int>,
                                                             of value: UInt64, key: (Records.Element) -> UInt64) -> Int where Records.Index == Int {
        // Samples inside the range: records firstSample * stride ..< endSample * stride.
        let firstSample = (range.lowerBound + stride - 1) / stride
        let endSample = (range.upperBound + stride - 1) / stride
        guard firstSample < endSample else { return SortedSearch.upperBound(records, in: range, of: value, key: key) }
        // The first sample above `value`: the answer is after the sample before it and at or
        // before this one.
        let sample = SortedSearch.upperBound(keys, in: firstSample..<endSample, of: value) { $0 }
        let low = sample == firstSample ? range.lowerBound : (sample - 1) * stride
        let high = sample == endSample ? range.upperBound : sample * stride
        return SortedSearch.upperBound(records, in: low..<high, of: value, key: key)
    }
}
