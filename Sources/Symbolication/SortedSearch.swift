/// The one binary search of the index's sorted arrays (line rows, ranges of each depth,
/// symbols): every lookup asks for the last element at or before an address.
enum SortedSearch {
    /// In `range` of `elements`, sorted by `key`, the first index whose key is above `value`
    /// (`range.upperBound` if none): the element before it, if it is in `range`, is the last
    /// one at or before `value`.
    @inline(__always)
    static func upperBound<Elements: RandomAccessCollection>(
        _ elements: Elements, in range: Range<Int>, of value: UInt64, key: (Elements.Element) -> UInt64
    ) -> Int where Elements.Index == Int {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let mid = low + (high - low) / 2
            if key(elements[mid]) <= value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
