import LintKit
import Testing

/// The text reporter's colour: compiler-style SGR codes around the plain line's parts, so
/// stripping them gives the plain output, and nothing from a finding's text reaches the
/// terminal as a code.
@Suite struct TextReporterTests {
    static let findings = ReporterFixtures.findings + [
        Finding(file: "a\u{1B}[31m.plist", location: .line(3), severity: .warning, ruleID: "plist.empty-key", message: "hidden \u{1B}[2J text"),
    ]

    @Test func plainGolden() {
        #expect(TextReporter().render(Self.findings) == #"""
            App/Info.plist:13:2: error: CFBundleShortVersionString "1.4.2.1" is not <1.2.3> & co [infoplist.short-version-format]
            App/Info.plist:20:2: warning: it's "empty" — café [infoplist.usage-description]
            Build/Settings.plist: offset 0x163: note: binary property list [plist.binary-format]
            R&D <old>/App.entitlements: error: bad byte \x01 here [plist.syntax]
            a\x1B[31m.plist:3: warning: hidden \x1B[2J text [plist.empty-key]

            """#)
    }

    @Test func coloredGolden() {
        let esc = "\u{1B}"
        #expect(TextReporter(colored: true).render(Self.findings) == """
            \(esc)[1mApp/Info.plist:13:2:\(esc)[0m \(esc)[1;31merror:\(esc)[0m CFBundleShortVersionString "1.4.2.1" is not <1.2.3> & co \(esc)[2m[infoplist.short-version-format]\(esc)[0m
            \(esc)[1mApp/Info.plist:20:2:\(esc)[0m \(esc)[1;35mwarning:\(esc)[0m it's "empty" — café \(esc)[2m[infoplist.usage-description]\(esc)[0m
            \(esc)[1mBuild/Settings.plist: offset 0x163:\(esc)[0m \(esc)[1;36mnote:\(esc)[0m binary property list \(esc)[2m[plist.binary-format]\(esc)[0m
            \(esc)[1mR&D <old>/App.entitlements:\(esc)[0m \(esc)[1;31merror:\(esc)[0m bad byte \\x01 here \(esc)[2m[plist.syntax]\(esc)[0m
            \(esc)[1ma\\x1B[31m.plist:3:\(esc)[0m \(esc)[1;35mwarning:\(esc)[0m hidden \\x1B[2J text \(esc)[2m[plist.empty-key]\(esc)[0m

            """)
    }

    /// Without its SGR codes the coloured text is the plain text, byte for byte.
    @Test func colourOnlyAddsCodes() {
        let colored = TextReporter(colored: true).render(Self.findings)
        let stripped = colored.replacing(/\x{1B}\[[0-9;]*m/, with: "")
        #expect(stripped == TextReporter().render(Self.findings))
        // Every ESC is one of ours: three codes and their resets a line.
        #expect(colored.filter { $0 == "\u{1B}" }.count == Self.findings.count * 6)
    }
}
