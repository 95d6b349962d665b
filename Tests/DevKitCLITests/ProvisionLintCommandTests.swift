import DevKitTestSupport
import Foundation
import Testing

/// `devkit provision lint` end to end: corpus profiles, generated apps, reporters, exit codes.
@Suite struct ProvisionLintCommandTests {
    static let corpus = ProvisionInspectCommandTests.corpus
    static let now = ProvisionInspectCommandTests.now

    @Test func corpusProfilesWithExpectAndDevice() throws {
        guard ProvisionInspectCommandTests.corpusPresent else { return }
        let r = try CLI.run(["provision", "lint"] + Self.now + ["--expect", "development", "--device", "00008110-000C25E601C2801E", "--device", "00008030-0000000000000000",
                             "\(Self.corpus)/magicbell-embedded.mobileprovision", "\(Self.corpus)/match-test.provisionprofile", "\(Self.corpus)/fastlane-test.mobileprovision"])
        #expect(r.status == 1)
        try CLI.assertSnapshot(r.stdout, named: "provision-lint-corpus.txt")
    }

    /// A profile valid for 12 more days: a warning only, exit 0 (1 with --strict).
    @Test func expiringIsAWarning() throws {
        guard ProfileFactory.opensslAvailable else { print("skipped: openssl not installed"); return }
        let factory = try ProfileFactory()
        let profile = try factory.write(try factory.sign(try factory.payload(expires: "2026-01-13T00:00:00Z")), name: "soon.mobileprovision")
        let r = try CLI.run(["provision", "lint"] + Self.now + ["soon.mobileprovision"], cwd: factory.directory)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("soon.mobileprovision: warning: the profile expires in 12 days [profile.expiring]"))
        let strict = try CLI.run(["provision", "lint", "--strict", "--warn-days", "13"] + Self.now + [profile.path])
        #expect(strict.status == 1)
        let quiet = try CLI.run(["provision", "lint", "--warn-days", "12"] + Self.now + [profile.path])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet.stdout)")
    }

    /// An app whose binary asks for more than its profile grants, for another bundle id.
    @Test func appChecks() throws {
        guard ProfileFactory.opensslAvailable else { print("skipped: openssl not installed"); return }
        let factory = try ProfileFactory()
        let profile = try factory.write(try factory.sign(try factory.payload(bundleID: "com.example.*")), name: "wild.mobileprovision")
        let entitlements = #"{"application-identifier": "ABCDE12345.org.other.app", "com.apple.developer.team-identifier": "ABCDE12345", "get-task-allow": true, "aps-environment": "production"}"#
        try TestApp.make(in: factory.directory, profile: profile, repoRoot: CLI.repoRoot, bundleID: "org.other.app", entitlementsJSON: entitlements)
        let r = try CLI.run(["provision", "lint"] + Self.now + ["Demo.ipa", "noprofile.ipa"], cwd: factory.directory)
        #expect(r.status == 1)
        try CLI.assertSnapshot(r.stdout, named: "provision-lint-app.txt")
        let sarif = try CLI.run(["provision", "lint", "--format", "sarif"] + Self.now + ["Demo.ipa"], cwd: factory.directory)
        let log = try JSONSerialization.jsonObject(with: sarif.stdoutBytes) as? [String: Any]
        let results = ((log?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        #expect(Set(results.compactMap { $0["ruleId"] as? String }) == ["app.bundle-identifier-mismatch", "app.entitlement-not-granted"])
        // The formats of issue 21 are there too: Checkstyle (checked against its XSD), JUnit, GitLab.
        let checkstyle = try CLI.run(["provision", "lint", "--format", "checkstyle"] + Self.now + ["Demo.ipa"], cwd: factory.directory)
        #expect(checkstyle.status == 1)
        #expect(checkstyle.stdout.contains(#"source="app.bundle-identifier-mismatch"/>"#), "\(checkstyle.stdout)")
        if let check = try XMLSchemaCheck.validate(checkstyle.stdout, against: "checkstyle.xsd") { #expect(check.status == 0, "\(check.stderr)") }
        let junit = try CLI.run(["provision", "lint", "--format", "junit"] + Self.now + ["Demo.ipa"], cwd: factory.directory)
        #expect(junit.stdout.contains(#"<testcase classname="app.entitlement-not-granted""#), "\(junit.stdout)")
        if let check = try XMLSchemaCheck.validate(junit.stdout, against: "junit.xsd") { #expect(check.status == 0, "\(check.stderr)") }
        let gitlab = try CLI.run(["provision", "lint", "--format", "gitlab"] + Self.now + ["Demo.ipa"], cwd: factory.directory)
        let issues = try JSONSerialization.jsonObject(with: gitlab.stdoutBytes) as? [[String: Any]] ?? []
        #expect(Set(issues.compactMap { $0["check_name"] as? String }) == ["app.bundle-identifier-mismatch", "app.entitlement-not-granted"])
    }

    /// devkit lint's Info.plist rules run on the app's Info.plist (a built product).
    @Test func infoPlistRulesOnTheApp() throws {
        guard ProfileFactory.opensslAvailable else { print("skipped: openssl not installed"); return }
        let factory = try ProfileFactory()
        let profile = try factory.write(try factory.sign(try factory.payload()), name: "dev.mobileprovision")
        try TestApp.make(in: factory.directory, profile: profile, repoRoot: CLI.repoRoot,
                         infoJSON: #"{"CFBundleVersion": "1.0b", "CFBundleShortVersionString": "$(MARKETING_VERSION)"}"#)
        let r = try CLI.run(["provision", "lint", "--format", "json"] + Self.now + ["Demo.ipa"], cwd: factory.directory)
        #expect(r.status == 1)
        let findings = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]] ?? []
        let ids = Set(findings.compactMap { $0["rule"] as? String })
        #expect(ids.isSuperset(of: ["infoplist.bundle-version-format", "infoplist.unexpanded-variable"]), "\(r.stdout)")
        #expect(r.stdout.contains("Demo.ipa!Payload/Demo.app/Info.plist"))
    }

    /// A matching app lints clean; --disable turns a rule off.
    @Test func cleanAppAndDisable() throws {
        guard ProfileFactory.opensslAvailable else { print("skipped: openssl not installed"); return }
        let factory = try ProfileFactory()
        let profile = try factory.write(try factory.sign(try factory.payload(extraEntitlements: "\t\t<key>keychain-access-groups</key>\n\t\t<array>\n\t\t\t<string>ABCDE12345.*</string>\n\t\t</array>\n")), name: "dev.mobileprovision")
        try TestApp.make(in: factory.directory, profile: profile, repoRoot: CLI.repoRoot)
        let clean = try CLI.run(["provision", "lint", "--expect", "development"] + Self.now + ["Demo.app", "Demo.ipa"], cwd: factory.directory)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.isEmpty, "\(clean.stdout)")
        let wrongType = try CLI.run(["provision", "lint", "--expect", "appstore"] + Self.now + ["Demo.ipa"], cwd: factory.directory)
        #expect(wrongType.status == 1)
        #expect(wrongType.stdout.contains("expected an App Store profile [profile.type-mismatch]"))
        let disabled = try CLI.run(["provision", "lint", "--expect", "appstore", "--disable", "profile.type-mismatch"] + Self.now + ["Demo.ipa"], cwd: factory.directory)
        #expect(disabled.status == 0, "\(disabled.stdout)")
    }

    @Test func unreadableInputIsExitTwo() throws {
        guard ProvisionInspectCommandTests.corpusPresent else { return }
        let r = try CLI.run(["provision", "lint"] + Self.now + ["\(Self.corpus)/gym-dummy.mobileprovision", "\(Self.corpus)/fastlane-test.mobileprovision"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("gym-dummy.mobileprovision: offset 0x0: error: CMS: empty file"))
        #expect(r.stdout.contains("[profile.expired]"))
        let unknown = try CLI.run(["provision", "lint", "--disable", "profile.nope", "x"])
        #expect(unknown.status == 2)
    }

    /// .devkit.yml's lint: section configures provisioning rules too; flags go over it.
    @Test func configFile() throws {
        guard ProvisionInspectCommandTests.corpusPresent else { return }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let profile = CLI.repoRoot.appendingPathComponent("\(Self.corpus)/magicbell-embedded.mobileprovision").path
        try "lint:\n  disabled_rules: [profile.expired-certificate]\n  severity: {profile.expired: warning}\n".write(to: dir.appendingPathComponent(".devkit.yml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["provision", "lint"] + Self.now + [profile], cwd: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasSuffix("warning: the profile expired on 2025-10-18T09:37:30Z (75 days ago) [profile.expired]\n"), "\(r.stdout)")
        #expect(!r.stdout.contains("expired-certificate"))
        let ignored = try CLI.run(["provision", "lint", "--no-config"] + Self.now + [profile], cwd: dir)
        #expect(ignored.status == 1)
        #expect(ignored.stdout.contains("[profile.expired-certificate]"))
        try "lint:\n  disabled_rules: [profile.expird]\n".write(to: dir.appendingPathComponent(".devkit.yml"), atomically: true, encoding: .utf8)
        let typo = try CLI.run(["provision", "lint", profile], cwd: dir)
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("unknown rule \"profile.expird\""))
    }

    @Test func listRules() throws {
        let r = try CLI.run(["provision", "lint", "--list-rules"])
        #expect(r.status == 0)
        for id in ["profile.expired", "profile.expired-certificate", "profile.signature-invalid", "profile.type-mismatch", "profile.get-task-allow",
                   "profile.device-not-provisioned", "app.missing-profile", "app.bundle-identifier-mismatch", "app.entitlement-not-granted", "app.team-mismatch"] {
            #expect(r.stdout.contains(id), "\(id)")
        }
    }
}
