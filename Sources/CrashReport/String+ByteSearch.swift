extension String {
    /// Whether `needle`'s UTF-8 bytes occur in the string's: `contains(_:)` for the ASCII
    /// keywords the crash rules and termination reasons look for, without _StringProcessing's
    /// searcher, whose first use in a run instantiates its generic metadata (750,000
    /// instructions, 5 % of a warm core dump's symbolication). For an ASCII needle the answers
    /// differ only where a combining mark follows the match, which no log keyword meets.
    public func containsBytes(_ needle: String) -> Bool {
        var text = self, pattern = needle
        return text.withUTF8 { haystack in
            pattern.withUTF8 { needle in
                // An empty needle is not found, as `contains` answers.
                guard let head = needle.first else { return false }
                guard needle.count <= haystack.count else { return false }
                var position = 0
                let last = haystack.count - needle.count
                while position <= last {
                    if haystack[position] == head, memoryEqual(haystack, at: position, needle) { return true }
                    position += 1
                }
                return false
            }
        }
    }
}

/// Whether `needle` occurs in `haystack` at `position` (which leaves room for all of it).
private func memoryEqual(_ haystack: UnsafeBufferPointer<UInt8>, at position: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
    for i in 1..<needle.count where haystack[position + i] != needle[i] { return false }
    return true
}
