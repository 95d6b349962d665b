import DevKitTestSupport
import Foundation
import LintKit
import Testing

/// The Checkstyle reporter: golden output (escaping, severities, positions written only when
/// known) and the output checked against Fixtures/checkstyle.xsd by xmllint.
@Suite struct CheckstyleReporterTests {
    @Test func golden() {
        #expect(CheckstyleReporter().render(ReporterFixtures.findings) == #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <checkstyle version="4.3">
              <file name="App/Info.plist">
                <error line="13" column="2" severity="error" message="CFBundleShortVersionString &quot;1.4.2.1&quot; is not &lt;1.2.3&gt; &amp; co" source="infoplist.short-version-format"/>
                <error line="20" column="2" severity="warning" message="it&#39;s &quot;empty&quot; — café" source="infoplist.usage-description"/>
              </file>
              <file name="Build/Settings.plist">
                <error severity="info" message="offset 0x163: binary property list" source="plist.binary-format"/>
              </file>
              <file name="R&amp;D &lt;old&gt;/App.entitlements">
                <error severity="error" message="bad byte \#u{FFFD} here" source="plist.syntax"/>
              </file>
            </checkstyle>

            """#)
    }

    @Test func emptyReport() {
        #expect(CheckstyleReporter().render([]) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <checkstyle version="4.3">
            </checkstyle>

            """)
    }

    @Test(arguments: [ReporterFixtures.findings, []])
    func validatesAgainstSchema(_ findings: [Finding]) throws {
        guard let result = try XMLSchemaCheck.validate(CheckstyleReporter().render(findings), against: "checkstyle.xsd") else {
            print("skipped: xmllint missing (Scripts/install-deps installs libxml2-utils)")
            return
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" validates\n"), "\(result.stderr)")
    }

    /// The schema check can fail: a severity Checkstyle does not define is refused.
    @Test func schemaRefusesWhatTheFormatForbids() throws {
        let bad = CheckstyleReporter().render(ReporterFixtures.findings).replacingOccurrences(of: "severity=\"info\"", with: "severity=\"note\"")
        guard let result = try XMLSchemaCheck.validate(bad, against: "checkstyle.xsd") else { return print("skipped: xmllint missing") }
        #expect(result.status != 0)
        #expect(result.stderr.contains("fails to validate"), "\(result.stderr)")
    }
}
