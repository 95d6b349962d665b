/// A parsed report and what was skipped on the way.
public struct CrashReportDocument: Hashable, Sendable {
    public var report: CrashReport
    public var warnings: [CrashDiagnostic]

    public init(report: CrashReport, warnings: [CrashDiagnostic]) {
        self.report = report
        self.warnings = warnings
    }
}
