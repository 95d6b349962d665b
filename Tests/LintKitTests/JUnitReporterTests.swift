import DevKitTestSupport
import Foundation
import LintKit
import Testing

/// The JUnit reporter: golden output (escaping, notes as passing cases, counts) and the
/// output checked against Fixtures/junit.xsd by xmllint.
@Suite struct JUnitReporterTests {
    @Test func golden() {
        #expect(JUnitReporter().render(ReporterFixtures.findings) == #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="devkit lint" tests="4" failures="3" errors="0">
              <testsuite name="App/Info.plist" tests="2" failures="2" errors="0" skipped="0">
                <testcase classname="infoplist.short-version-format" name="App/Info.plist:13:2">
                  <failure type="error" message="CFBundleShortVersionString &quot;1.4.2.1&quot; is not &lt;1.2.3&gt; &amp; co">App/Info.plist:13:2: error: CFBundleShortVersionString &quot;1.4.2.1&quot; is not &lt;1.2.3&gt; &amp; co [infoplist.short-version-format]</failure>
                </testcase>
                <testcase classname="infoplist.usage-description" name="App/Info.plist:20:2">
                  <failure type="warning" message="it&#39;s &quot;empty&quot; — café">App/Info.plist:20:2: warning: it&#39;s &quot;empty&quot; — café [infoplist.usage-description]</failure>
                </testcase>
              </testsuite>
              <testsuite name="Build/Settings.plist" tests="1" failures="0" errors="0" skipped="0">
                <testcase classname="plist.binary-format" name="Build/Settings.plist: offset 0x163">
                  <system-out>Build/Settings.plist: offset 0x163: note: binary property list [plist.binary-format]</system-out>
                </testcase>
              </testsuite>
              <testsuite name="R&amp;D &lt;old&gt;/App.entitlements" tests="1" failures="1" errors="0" skipped="0">
                <testcase classname="plist.syntax" name="R&amp;D &lt;old&gt;/App.entitlements">
                  <failure type="error" message="bad byte \#u{FFFD} here">R&amp;D &lt;old&gt;/App.entitlements: error: bad byte \x01 here [plist.syntax]</failure>
                </testcase>
              </testsuite>
            </testsuites>

            """#)
    }

    @Test func emptyReport() {
        #expect(JUnitReporter().render([]) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="devkit lint" tests="0" failures="0" errors="0">
            </testsuites>

            """)
    }

    @Test(arguments: [ReporterFixtures.findings, []])
    func validatesAgainstSchema(_ findings: [Finding]) throws {
        guard let result = try XMLSchemaCheck.validate(JUnitReporter().render(findings), against: "junit.xsd") else {
            print("skipped: xmllint missing (Scripts/install-deps installs libxml2-utils)")
            return
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" validates\n"), "\(result.stderr)")
    }

    /// The schema check can fail: a test case without its required name is refused.
    @Test func schemaRefusesWhatTheFormatForbids() throws {
        let bad = JUnitReporter().render(ReporterFixtures.findings).replacingOccurrences(of: "<testcase classname", with: "<testcase kind")
        guard let result = try XMLSchemaCheck.validate(bad, against: "junit.xsd") else { return print("skipped: xmllint missing") }
        #expect(result.status != 0)
        #expect(result.stderr.contains("fails to validate"), "\(result.stderr)")
    }
}
