import Diagnostics
import PropertyList

/// Checkstyle XML, which code-review bots (reviewdog, Danger), Jenkins' Warnings plugin and
/// many editors read: `<checkstyle>` holding one `<file name>` per file with findings, one
/// `<error line column severity message source>` per finding. `severity` is Checkstyle's
/// `error`, `warning` or `info` (for notes); `source` is the rule id. `line` and `column` are
/// written only when known, as Checkstyle writes `column`; a byte offset in a binary plist
/// goes in front of the message instead.
///
/// Attribute values are escaped by `MarkupText`, as every markup devkit writes.
public struct CheckstyleReporter: Reporter {
    public static let identifier = "checkstyle"

    public init() {}

    public func render(_ findings: [Finding]) -> String {
        // Checkstyle writes its own release number here; linters that borrow the format
        // commonly write 4.3. Readers do not depend on it, and a fixed value keeps the report
        // the same from one devkit release to the next.
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
        for (file, inFile) in FindingGroups.byFile(findings) {
            out += "  <file name=\"\(MarkupText.escape(file))\">\n"
            for finding in inFile {
                var attributes = ""
                var message = finding.message
                switch finding.location {
                case .text(let line, let column)?: attributes += "line=\"\(line)\" column=\"\(column)\" "
                case .line(let line)?: attributes += "line=\"\(line)\" "
                case .byteOffset(let offset)?: message = "\(SourcePosition.byteOffset(offset)): " + message
                case nil: break
                }
                attributes += "severity=\"\(Self.severity(finding.severity))\" message=\"\(MarkupText.escape(message))\" source=\"\(MarkupText.escape(finding.ruleID))\""
                out += "    <error \(attributes)/>\n"
            }
            out += "  </file>\n"
        }
        out += "</checkstyle>\n"
        return out
    }

    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "info"
        }
    }
}
