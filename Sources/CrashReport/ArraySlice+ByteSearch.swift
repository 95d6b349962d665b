extension ArraySlice<UInt8> {
    /// Without leading and trailing ASCII spaces, tabs and carriage returns.
    var trimmingASCIISpace: ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        return self[first...last]
    }

    /// Where `needle`'s UTF-8 bytes first occur in the slice.
    func firstRange(ofBytes needle: String) -> Range<Int>? {
        let pattern = Array(needle.utf8)
        guard let head = pattern.first, pattern.count <= count else { return nil }
        var position = startIndex
        while position <= endIndex - pattern.count {
            guard let candidate = self[position...(endIndex - pattern.count)].firstIndex(of: head) else { return nil }
            if self[candidate..<(candidate + pattern.count)].elementsEqual(pattern) { return candidate..<(candidate + pattern.count) }
            position = candidate + 1
        }
        return nil
    }

    /// Whether `needle`'s UTF-8 bytes occur in the slice.
    func containsBytes(_ needle: String) -> Bool { firstRange(ofBytes: needle) != nil }
}
