import BundleChecks
import DevKitTestSupport
import Foundation
import LintConfigFile
import LintKit
import PlistChecks
import Testing

/// The bundle check on apps built by Scripts/fixtures/make-privacy-app (real Mach-O binaries
/// linked by ld64.lld, manifests right and wrong): exactly the findings the apps' contents call for.
@Suite struct RequiredReasonCheckTests {
    static func check(_ app: String) throws -> (findings: [Finding], inputErrors: [String]) {
        let engine = try LintEngine(registry: BundleRules.lintRegistry)
        return RequiredReasonCheck().check(try PrivacyApp.path(app), engine: engine)
    }

    /// (file relative to the output directory, rule, words the message must hold).
    static func summary(_ findings: [Finding]) throws -> [String] {
        let root = try PrivacyApp.path("Good.app").dropLast("Good.app".count)
        return findings.map { "\($0.file.replacingOccurrences(of: String(root), with: "")) \($0.ruleID): \($0.message.replacingOccurrences(of: String(root), with: ""))" }
    }

    @Test func declaredUsesAndListedSDKWithManifestAreClean() throws {
        let (findings, errors) = try Self.check("Good.app")
        #expect(errors.isEmpty)
        #expect(try Self.summary(findings) == [])
    }

    @Test func undeclaredCategoriesAndAnSDKWithoutManifest() throws {
        let (findings, errors) = try Self.check("Bad.app")
        #expect(errors.isEmpty)
        // In the order of the binaries, then of the symbol table.
        let summary = try Self.summary(findings)
        #expect(summary == [
            "Bad.app/Bad privacy.missing-api-declaration: Bad imports _OBJC_CLASS_$_UITextInputMode (activeInputModes), a required-reason API, but Bad.app/PrivacyInfo.xcprivacy declares no NSPrivacyAccessedAPICategoryActiveKeyboards (ITMS-91053)",
            "Bad.app/Bad privacy.missing-api-declaration: Bad imports _getattrlist (getattrlist), a required-reason API, but Bad.app/PrivacyInfo.xcprivacy declares no NSPrivacyAccessedAPICategoryFileTimestamp or NSPrivacyAccessedAPICategoryDiskSpace (ITMS-91053)",
            "Bad.app/Bad privacy.missing-api-declaration: Bad imports _stat (stat), a required-reason API, but Bad.app/PrivacyInfo.xcprivacy declares no NSPrivacyAccessedAPICategoryFileTimestamp (ITMS-91053)",
            "Bad.app/Bad privacy.missing-api-declaration: Bad imports _statfs (statfs), a required-reason API, but Bad.app/PrivacyInfo.xcprivacy declares no NSPrivacyAccessedAPICategoryDiskSpace (ITMS-91053)",
            "Bad.app/Frameworks/Alamofire.framework/Alamofire privacy.missing-api-declaration: Alamofire imports _mach_absolute_time (mach_absolute_time), a required-reason API, but Bad.app/Frameworks/Alamofire.framework has no PrivacyInfo.xcprivacy declaring NSPrivacyAccessedAPICategorySystemBootTime (ITMS-91053)",
            "Bad.app/Frameworks/Alamofire.framework/Alamofire privacy.sdk-missing-manifest: Bad.app/Frameworks/Alamofire.framework is one of Apple's commonly used third-party SDKs but ships no PrivacyInfo.xcprivacy (ITMS-91061); update the SDK to a release that has one",
            "Bad.app/Frameworks/Legacy.framework/Legacy privacy.missing-api-declaration: Legacy imports _NSFileSystemFreeSize (systemFreeSize), a required-reason API, but Bad.app/Frameworks/Legacy.framework has no PrivacyInfo.xcprivacy declaring NSPrivacyAccessedAPICategoryDiskSpace (ITMS-91053)",
        ], "\(summary.joined(separator: "\n"))")
    }

    /// Through `devkit lint`'s front end: the files inside are linted too (the wrong reason
    /// code in the app's manifest, with its line), the rules obey --disable.
    @Test func frontEndLintsTheFilesAndTheBundle() throws {
        let app = try PrivacyApp.path("Bad.app")
        let frontend = PlistLintFrontend(selection: RuleSelection(disabled: ["privacy.sdk-missing-manifest"]), registry: BundleRules.lintRegistry,
                                         directoryChecks: [RequiredReasonCheck()])
        let result = try frontend.lint([app], jobs: 1, fix: false)
        #expect(result.inputErrors.isEmpty)
        let reason = try #require(result.findings.first { $0.ruleID == "privacy.accessed-api-reason" })
        #expect(reason.file == app + "/PrivacyInfo.xcprivacy")
        #expect(reason.location != nil)
        #expect(reason.message.contains("C617.1 is for NSPrivacyAccessedAPICategoryFileTimestamp"))
        #expect(result.findings.filter { $0.ruleID == "privacy.missing-api-declaration" }.count == 6)
        #expect(!result.findings.contains { $0.ruleID == "privacy.sdk-missing-manifest" })
    }

    @Test func onlyAppDirectoriesAreChecked() {
        #expect(RequiredReasonCheck().applies(to: "build/App.app/"))
        #expect(!RequiredReasonCheck().applies(to: "App/Sources"))
    }

    /// A binary that is not Mach-O is an input error naming it; the other binaries are still checked.
    @Test func damagedBinaryIsAnInputError() throws {
        let copy = try TestProcess.temporaryDirectory("devkit-privacy-damaged").appendingPathComponent("Bad.app").path
        _ = try TestProcess.run("/bin/cp", ["-R", try PrivacyApp.path("Bad.app"), copy])
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: copy + "/Bad"))
        let engine = try LintEngine(registry: BundleRules.lintRegistry)
        let (findings, errors) = RequiredReasonCheck().check(copy, engine: engine)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix(copy + "/Bad: offset 0x0: error:") == true, "\(errors)")
        #expect(findings.contains { $0.file.hasSuffix("Alamofire") })
    }
}
