import DevKitTestSupport
import Foundation
import Testing

/// `devkit provision inspect` end to end, on the corpus profiles and on profiles signed at
/// test time. `--now` pins "expires in N days" so golden files stay true.
@Suite struct ProvisionInspectCommandTests {
    static let corpus = "../shared/corpus/provisioning"
    static let now = ["--now", "2026-01-01T00:00:00Z"]

    static var corpusPresent: Bool {
        let present = FileManager.default.fileExists(atPath: CLI.repoRoot.appendingPathComponent(corpus).path)
        if !present { print("skipped: ../shared/corpus not present") }
        return present
    }

    @Test func textSummaryWithDevicesAndEntitlements() throws {
        guard Self.corpusPresent else { return }
        let r = try CLI.run(["provision", "inspect", "--devices", "--entitlements"] + Self.now + ["\(Self.corpus)/appinfo-ios_development.mobileprovision"])
        #expect(r.status == 0, "\(r.stderr)")
        try CLI.assertSnapshot(r.stdout, named: "provision-inspect-development.txt")
    }

    /// Two files, one of them BER with indefinite lengths.
    @Test func textSummaryOfSeveral() throws {
        guard Self.corpusPresent else { return }
        let r = try CLI.run(["provision", "inspect"] + Self.now + ["\(Self.corpus)/fastlane-test.mobileprovision", "\(Self.corpus)/fastlane_core-very-capable-app-embedded.mobileprovision"])
        #expect(r.status == 0, "\(r.stderr)")
        try CLI.assertSnapshot(r.stdout, named: "provision-inspect-two.txt")
    }

    @Test func jsonHasEveryField() throws {
        guard Self.corpusPresent else { return }
        let r = try CLI.run(["provision", "inspect", "--format", "json"] + Self.now + ["\(Self.corpus)/magicbell-embedded.mobileprovision"])
        #expect(r.status == 0, "\(r.stderr)")
        try CLI.assertSnapshot(r.stdout, named: "provision-inspect-magicbell.json")
        let parsed = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]]
        #expect(parsed?.first?["type"] as? String == "development")
        #expect((parsed?.first?["provisionedDevices"] as? [String])?.count == 5)
    }

    /// The tampered profile is an error, the others still print; exit 2.
    @Test func tamperedAndEmptyAreErrors() throws {
        guard Self.corpusPresent else { return }
        let r = try CLI.run(["provision", "inspect"] + Self.now + ["\(Self.corpus)/match-test.provisionprofile", "\(Self.corpus)/gym-dummy.mobileprovision", "\(Self.corpus)/spaceship-downloaded_provisioning_profile.mobileprovision", "\(Self.corpus)/fastlane-test.mobileprovision"])
        #expect(r.status == 2)
        #expect(r.stdout.hasPrefix("\(Self.corpus)/fastlane-test.mobileprovision\n"))
        try CLI.assertSnapshot(r.stderr, named: "provision-inspect-errors.txt")
    }

    @Test func trustRootsDirectory() throws {
        guard ProfileFactory.opensslAvailable else { print("skipped: openssl not installed"); return }
        let factory = try ProfileFactory()
        let profile = try factory.write(try factory.sign(try factory.payload(), with: factory.profileSigner), name: "chained.mobileprovision")
        let roots = factory.directory.appendingPathComponent("roots")
        try FileManager.default.createDirectory(at: roots, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: factory.rootCA.certificate, to: roots.appendingPathComponent("root.pem"))
        let trusted = try CLI.run(["provision", "inspect", "--trust-roots", roots.path, profile.path])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stdout.contains("Signature     signature valid, chain verified to \"Test Root CA\""))

        let otherRoots = factory.directory.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: otherRoots, withIntermediateDirectories: true)
        try factory.der(factory.otherRoot.certificate).write(to: otherRoots.appendingPathComponent("other.cer"))
        let untrusted = try CLI.run(["provision", "inspect", "--trust-roots", otherRoots.path, profile.path])
        #expect(untrusted.status == 2)
        #expect(untrusted.stderr.contains("certificate chain not trusted: no trusted root issued"))

        let empty = try CLI.run(["provision", "inspect", "--trust-roots", factory.directory.appendingPathComponent("nope").path, profile.path])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("No such file or directory"))
    }

    /// An .ipa and its .app: the embedded profile plus the binary's entitlements.
    @Test func appAndIPA() throws {
        guard ProfileFactory.opensslAvailable else { print("skipped: openssl not installed"); return }
        let factory = try ProfileFactory()
        let profile = try factory.write(try factory.sign(try factory.payload()), name: "dev.mobileprovision")
        try TestApp.make(in: factory.directory, profile: profile, repoRoot: CLI.repoRoot)
        let r = try CLI.run(["provision", "inspect", "--entitlements"] + Self.now + ["Demo.ipa"], cwd: factory.directory)
        #expect(r.status == 0, "\(r.stderr)")
        // The certificate was made just now: its dates and fingerprint change every run.
        let stable = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("      serial ") && !$0.contains("      SHA-1 ") }.joined(separator: "\n")
        try CLI.assertSnapshot(stable, named: "provision-inspect-ipa.txt")
        let app = try CLI.run(["provision", "inspect", "--entitlements"] + Self.now + ["Demo.app"], cwd: factory.directory)
        #expect(app.stdout.replacingOccurrences(of: "Demo.app/embedded", with: "Demo.ipa!Payload/Demo.app/embedded") == r.stdout)
        // The bare binary: its entitlements, as codesign -d --entitlements shows them.
        let binary = try CLI.run(["provision", "inspect", "Demo.app/Demo"], cwd: factory.directory)
        #expect(binary.status == 0)
        #expect(binary.stdout.hasPrefix("Demo.app/Demo\n  Binary        arm64: 4 entitlement keys (XML and DER)\n"))
        #expect(binary.stdout.contains("\"get-task-allow\" => true"))
        let bad = try CLI.run(["provision", "inspect", "zip-slip.ipa", "liar.ipa", "noprofile.ipa"], cwd: factory.directory)
        #expect(bad.status == 2)
        try CLI.assertSnapshot(bad.stderr, named: "provision-inspect-bad-ipa.txt")
    }

    @Test func badNowIsAUsageError() throws {
        let r = try CLI.run(["provision", "inspect", "--now", "yesterday", "x.mobileprovision"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--now yesterday is not a date"))
    }
}
