import Diagnostics
import LintKit
import PropertyList

/// Findings for the reporters' golden tests: every kind of position, every severity, and
/// text that each format must escape (markup characters, quotes, an apostrophe, a control
/// character, non-ASCII) in messages and paths.
enum ReporterFixtures {
    static let findings: [Finding] = [
        Finding(file: "App/Info.plist", location: .text(line: 13, column: 2), severity: .error,
                ruleID: "infoplist.short-version-format", message: #"CFBundleShortVersionString "1.4.2.1" is not <1.2.3> & co"#,
                keyPath: KeyPath(["CFBundleShortVersionString"])),
        Finding(file: "App/Info.plist", location: .text(line: 20, column: 2), severity: .warning,
                ruleID: "infoplist.usage-description", message: "it's \"empty\" — café",
                keyPath: KeyPath(["NSCameraUsageDescription"])),
        Finding(file: "Build/Settings.plist", location: .byteOffset(0x163), severity: .note,
                ruleID: "plist.binary-format", message: "binary property list", keyPath: KeyPath([])),
        Finding(file: "R&D <old>/App.entitlements", location: nil, severity: .error,
                ruleID: "plist.syntax", message: "bad byte \u{1} here", keyPath: nil),
    ]
}
