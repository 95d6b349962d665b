/// The lines of a byte buffer split at `\n` (a trailing `\r` dropped), without copying.
struct Lines: Sequence, IteratorProtocol {
    private var rest: ArraySlice<UInt8>
    private var done = false

    init(_ bytes: ArraySlice<UInt8>) { rest = bytes }

    mutating func next() -> ArraySlice<UInt8>? {
        guard !done else { return nil }
        if rest.isEmpty { done = true; return nil }
        var line: ArraySlice<UInt8>
        if let newline = rest.firstIndex(of: 0x0A) {
            line = rest[rest.startIndex..<newline]
            rest = rest[(newline + 1)...]
        } else {
            line = rest
            done = true
        }
        if line.last == 0x0D { line = line.dropLast() }
        return line
    }
}
