/// How `devkit symbolicate CRASHLOG` prints a report.
public enum CrashLogFormat: String, Sendable {
    /// What crashed, why (decoded registers) and where (`CrashSummaryRenderer`).
    case summary
    /// The log in its own format with symbols filled in, like `symbolicatecrash` (`SameFormatRenderer`).
    case same
    /// The parsed report with symbols (`CrashJSONRenderer`).
    case json
}
