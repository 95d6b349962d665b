import DevKitTestSupport
import Foundation
import Testing

/// `devkit provision manifest`: the files it writes, that `devkit lint` accepts them, and the
/// URLs it refuses.
@Suite struct ProvisionManifestCommandTests {
    static func app() throws -> ProfileFactory? {
        guard ProfileFactory.opensslAvailable else { print("skipped: openssl not installed"); return nil }
        let factory = try ProfileFactory()
        let profile = try factory.write(try factory.sign(try factory.payload()), name: "dev.mobileprovision")
        try TestApp.make(in: factory.directory, profile: profile, repoRoot: CLI.repoRoot)
        try FileManager.default.createDirectory(at: factory.directory.appendingPathComponent("out"), withIntermediateDirectories: true)
        return factory
    }

    @Test func writesManifestAndPage() throws {
        guard let factory = try Self.app() else { return }
        let r = try CLI.run(["provision", "manifest", "--ipa", "Demo.ipa", "--url", "https://example.com/beta/Demo.ipa",
                             "--display-image", "https://example.com/beta/57.png", "--full-size-image", "https://example.com/beta/512.png", "-o", "out"],
                            cwd: factory.directory)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "wrote out/manifest.plist and out/index.html\nitms-services://?action=download-manifest&url=https%3A%2F%2Fexample.com%2Fbeta%2Fmanifest.plist\n")
        let out = factory.directory.appendingPathComponent("out")
        try CLI.assertSnapshot(try String(contentsOf: out.appendingPathComponent("manifest.plist"), encoding: .utf8), named: "provision-manifest.plist")
        try CLI.assertSnapshot(try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8), named: "provision-manifest-index.html")
        // The lint engine's OTA-manifest rules accept it, compared with the app's Info.plist.
        let lint = try CLI.run(["lint", "out/manifest.plist", "--app", "Demo.app/Info.plist"], cwd: factory.directory)
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.isEmpty, "\(lint.stdout)")
        // Python's plistlib reads the manifest back with the app's metadata.
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", "import plistlib,sys; m=plistlib.load(open(sys.argv[1],'rb'))['items'][0]['metadata']; assert m == {'bundle-identifier':'com.example.app','bundle-version':'1.2.3','kind':'software','title':'Demo App'}, m",
                           out.appendingPathComponent("manifest.plist").path]
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 0)
    }

    @Test(arguments: [
        (["--url", "http://example.com/Demo.ipa"], "--url http://example.com/Demo.ipa: over-the-air installs need an https:// URL"),
        (["--url", "https://example.com/Demo.ipa", "--display-image", "ftp://x/57.png"], "--display-image ftp://x/57.png: over-the-air installs need an https:// URL"),
        (["--url", "https://example.com/a b.ipa"], "percent-encode"),
        (["--url", "https:///Demo.ipa"], "has no host"),
        (["--url", "https://example.com/Demo.ipa", "--manifest-url", "http://example.com/m.plist"], "--manifest-url"),
    ])
    func refusesBadURLs(_ arguments: [String], _ message: String) throws {
        guard let factory = try Self.app() else { return }
        let r = try CLI.run(["provision", "manifest", "--ipa", "Demo.ipa", "-o", "out"] + arguments, cwd: factory.directory)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: factory.directory.appendingPathComponent("out").path).isEmpty)
    }

    @Test func refusesHostileArchiveAndMissingDirectory() throws {
        guard let factory = try Self.app() else { return }
        let slip = try CLI.run(["provision", "manifest", "--ipa", "zip-slip.ipa", "--url", "https://example.com/x.ipa", "-o", "out"], cwd: factory.directory)
        #expect(slip.status == 2)
        #expect(slip.stderr.contains("unsafe path"))
        let noDir = try CLI.run(["provision", "manifest", "--ipa", "Demo.ipa", "--url", "https://example.com/x.ipa", "-o", "nope"], cwd: factory.directory)
        #expect(noDir.status == 2)
        #expect(noDir.stderr.contains("nope: error: not a directory"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: factory.directory.appendingPathComponent("out").path).isEmpty)
    }
}
