import PropertyList

/// JUnit XML, the test-report format CI servers (Jenkins, GitLab, Azure Pipelines, CircleCI)
/// show as test results: one `<testsuite>` per file with findings, one `<testcase>` per
/// finding (`classname` the rule id, `name` the position, `file:line:col`). Errors and
/// warnings are `<failure>`s whose text is the finding as the text reporter prints it; notes
/// are passing test cases with that line in `<system-out>`, since notes do not fail a run.
///
/// Text and attribute values are escaped by `MarkupText`, as every markup devkit writes.
public struct JUnitReporter: Reporter {
    public static let identifier = "junit"

    public init() {}

    public func render(_ findings: [Finding]) -> String {
        let failures = findings.count { $0.severity != .note }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"devkit lint\" tests=\"\(findings.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        for (file, inFile) in FindingGroups.byFile(findings) {
            let fileFailures = inFile.count { $0.severity != .note }
            out += "  <testsuite name=\"\(MarkupText.escape(file))\" tests=\"\(inFile.count)\" failures=\"\(fileFailures)\" errors=\"0\" skipped=\"0\">\n"
            for finding in inFile {
                let name = finding.diagnostic.location ?? file
                let line = MarkupText.escape("\(finding.diagnostic) [\(finding.ruleID)]")
                out += "    <testcase classname=\"\(MarkupText.escape(finding.ruleID))\" name=\"\(MarkupText.escape(name))\">\n"
                switch finding.severity {
                case .error, .warning:
                    out += "      <failure type=\"\(finding.severity)\" message=\"\(MarkupText.escape(finding.message))\">\(line)</failure>\n"
                case .note:
                    out += "      <system-out>\(line)</system-out>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }
}
