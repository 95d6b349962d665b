import CrashReport

extension CrashReportDocument {
    /// A document holding `report` and `warnings`.
    ///
    /// Why this detour: `CrashReportDocument`'s memberwise initializer is internal to the
    /// CrashReport module, and this target may not change that module. Its stored properties
    /// are public, so a document obtained from the one public producer (the text parser, on a
    /// fixed one-line report) is overwritten field by field. Replace with
    /// `CrashReportDocument(report:warnings:)` once CrashReport makes that initializer public.
    static func make(report: CrashReport, warnings: [CrashDiagnostic]) -> CrashReportDocument? {
        guard var document = try? CrashReportParser.parse(Array("Process: core\n".utf8)) else { return nil }
        document.report = report
        document.warnings = warnings
        return document
    }
}
