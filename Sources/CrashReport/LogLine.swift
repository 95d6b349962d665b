/// One line of a text log, as the line readers see it: numbered from 1, cut to
/// `CrashReportLimits.maxLineLength` (with the length it had, for a warning), trimmed.
struct LogLine {
    var number: Int
    var trimmed: Substring
    /// The line's length when it was longer than the limit and cut.
    var cutFrom: Int?

    /// The warning every reader gives for a cut line.
    var cutWarning: CrashDiagnostic? {
        cutFrom.map { CrashDiagnostic(line: number, message: "line of \($0) bytes cut to \(CrashReportLimits.maxLineLength)") }
    }
}
