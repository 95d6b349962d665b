/// Levenshtein distance, for "did you mean" suggestions.
public enum EditDistance {
    public static func distance(_ a: String, _ b: String) -> Int {
        distance(Array(a.utf8), Array(b.utf8), limit: Int.max)
    }

    /// The distance, or some value above `limit` as soon as every path exceeds it.
    static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return rowMinimum }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidate nearest to `word`, if within a third of its length (at least 1, at most 4
    /// edits); else the one candidate that starts with `word` (a truncated id).
    public static func closest(to word: String, in candidates: [String]) -> String? {
        if let near = nearest(to: word, in: candidates) { return near }
        let extensions = candidates.filter { $0.hasPrefix(word) }
        return extensions.count == 1 ? extensions[0] : nil
    }

    static func nearest(to word: String, in candidates: [String]) -> String? {
        let limit = max(1, min(4, word.utf8.count / 3))
        var best: (String, Int)?
        let bytes = Array(word.utf8)
        for candidate in candidates where abs(candidate.utf8.count - bytes.count) <= limit {
            let d = distance(bytes, Array(candidate.utf8), limit: limit)
            if d <= limit, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }
}
