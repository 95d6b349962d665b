import BundleChecks
import DevKitTestSupport
import LintConfigFile
import LintKit
import PlistChecks
import PropertyList
import Testing

/// The extension check on apps built by Scripts/fixtures/make-privacy-app: each extension's
/// Info.plist judged against its own app's, with positions; nothing twice with the walk.
@Suite struct AppExtensionCheckTests {
    static func lines(_ findings: [Finding], under root: String) -> [String] {
        findings.map { "\($0.file.replacingOccurrences(of: root, with: "")):\($0.location.map { "\($0)" } ?? "-") \($0.ruleID)" }
    }

    @Test func eachExtensionIsJudgedAgainstItsApp() throws {
        let app = try PrivacyApp.path("Extensions.app")
        let (findings, errors) = AppExtensionCheck().check(app, engine: try LintEngine(registry: BundleRules.lintRegistry))
        #expect(errors.isEmpty)
        // Share.appex is right; Stale.appex is wrong in every checked way, each at its key.
        #expect(Self.lines(findings, under: app) == [
            "/PlugIns/Stale.appex/Info.plist:7:2 extension.identifier-prefix",
            "/PlugIns/Stale.appex/Info.plist:7:2 extension.point",
            "/PlugIns/Stale.appex/Info.plist:13:2 extension.version-match",
            "/PlugIns/Stale.appex/Info.plist:15:2 extension.version-match",
            "/PlugIns/Stale.appex/Info.plist:17:2 extension.minimum-os",
        ])
        #expect(findings.first?.message == "the extension's CFBundleIdentifier \"com.example.stale\" does not begin with its app's \"com.example.extensions.\"")
    }

    /// Through `devkit lint`'s front end: every extension finding once, the other Info.plist
    /// rules once (by the walk), and --app wins over the containing app.
    @Test func frontEndReportsEachFindingOnce() throws {
        let app = try PrivacyApp.path("Extensions.app")
        let frontend = PlistLintFrontend(registry: BundleRules.lintRegistry, directoryChecks: [RequiredReasonCheck(), AppExtensionCheck()])
        let result = try frontend.lint([app], jobs: 1, fix: false)
        #expect(result.inputErrors.isEmpty)
        let extensionFindings = result.findings.filter { $0.ruleID.hasPrefix("extension.") }
        #expect(extensionFindings.count == 5)
        #expect(Set(result.findings).count == result.findings.count)
        // Judged against another app given with --app: only the walk judges, with that app.
        let other = try PrivacyApp.path("Good.app") + "/Info.plist"
        let withApp = PlistLintFrontend(appInfoPath: other, registry: BundleRules.lintRegistry,
                                        directoryChecks: [RequiredReasonCheck(), AppExtensionCheck()])
        let againstOther = try withApp.lint([app], jobs: 1, fix: false).findings.filter { $0.ruleID == "extension.identifier-prefix" }
        #expect(againstOther.map { $0.file.replacingOccurrences(of: app, with: "") }.sorted()
                == ["/PlugIns/Share.appex/Info.plist", "/PlugIns/Stale.appex/Info.plist"])
    }

    @Test func appsWithoutExtensionsOrUnreadableInfoPlistsGiveNothing() throws {
        let engine = try LintEngine(registry: BundleRules.lintRegistry)
        #expect(AppExtensionCheck().check(try PrivacyApp.path("Good.app"), engine: engine).findings.isEmpty)
        let missing = AppExtensionCheck().check("/nonexistent/App.app", engine: engine)
        #expect(missing.findings.isEmpty && missing.inputErrors.isEmpty)
    }
}
