/// A text reader's pass over a log: its lines, bounded and trimmed (`LogLines`), and the
/// warnings given on the way, each tied to the line being read. The Apple text, Swift
/// backtrace and sanitizer readers share it.
struct LogReading {
    private var lines: LogLines
    /// What was skipped or could not be read, in order.
    private(set) var warnings: [CrashDiagnostic] = []
    /// The 1-based number of the line `nextLine()` returned last (0 before the first).
    private(set) var lineNumber = 0

    init(_ bytes: ArraySlice<UInt8>) { lines = LogLines(bytes) }

    /// The next line, trimmed; a line cut to `CrashReportLimits.maxLineLength` is warned about first.
    mutating func nextLine() -> Substring? {
        guard let line = lines.next() else { return nil }
        lineNumber = line.number
        if let cut = line.cutWarning { warnings.append(cut) }
        return line.trimmed
    }

    /// A warning about the line being read.
    mutating func warn(_ message: String) {
        warnings.append(CrashDiagnostic(line: lineNumber, message: message))
    }

    /// A warning about the log as a whole (no line).
    mutating func warnAboutLog(_ message: String) {
        warnings.append(CrashDiagnostic(line: nil, message: message))
    }
}
