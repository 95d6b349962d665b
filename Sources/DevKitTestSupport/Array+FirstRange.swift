
extension Array where Element == UInt8 {
    /// The first index where `needle` occurs.
    public func firstRange(of needle: [UInt8]) -> Range<Int>? {
        guard !needle.isEmpty, needle.count <= count else { return nil }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if Array(self[start..<(start + needle.count)]) == needle { return start..<(start + needle.count) }
        }
        return nil
    }
}
