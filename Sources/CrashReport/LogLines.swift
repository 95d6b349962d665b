/// The lines of a log as `LogLine`s: the bounding and trimming the text readers share.
struct LogLines: Sequence, IteratorProtocol {
    private var lines: Lines
    private var number = 0

    init(_ bytes: ArraySlice<UInt8>) { lines = Lines(bytes) }

    mutating func next() -> LogLine? {
        guard var bytes = lines.next() else { return nil }
        number += 1
        var cutFrom: Int?
        if bytes.count > CrashReportLimits.maxLineLength {
            cutFrom = bytes.count
            bytes = bytes.prefix(CrashReportLimits.maxLineLength)
        }
        return LogLine(number: number, trimmed: String(decoding: bytes, as: UTF8.self).trimmedWhitespace, cutFrom: cutFrom)
    }
}
