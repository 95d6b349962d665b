import DevKitTestSupport
import Foundation
import Testing

/// `devkit lint` end to end on Samples/lint (written by Scripts/fixtures/make-lint-samples):
/// golden output per format, exit codes, --fix on a copy, config files found upward.
@Suite struct LintCommandTests {
    /// Every rule that needs a flag gets it, so each sample file shows its findings.
    static let all = ["lint", "Samples/lint", "--no-config", "--project-dir", "Samples/lint/App",
                      "--configuration", "release", "--app", "Samples/lint/App/Info.plist"]

    @Test(arguments: [("text", "txt"), ("json", "json"), ("sarif", "sarif"), ("github", "txt"), ("junit", "xml"),
                      ("checkstyle", "xml"), ("gitlab", "json")])
    func goldenOutput(_ format: String, _ ext: String) throws {
        let r = try CLI.run(Self.all + ["--format", format])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        try CLI.assertSnapshot(r.stdout, named: "devkit-lint-\(format).\(ext)")
    }

    /// A String Catalog (Samples/catalog, outside the lint tour's tree) gets its rules, each
    /// finding at the line and column of the value its key path names; stale and
    /// shouldTranslate: false entries are left out of the missing translations.
    @Test func stringCatalog() throws {
        let r = try CLI.run(["lint", "--no-config", "Samples/catalog"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        try CLI.assertSnapshot(r.stdout, named: "devkit-lint-xcstrings.txt")
        // Warnings alone pass; --strict fails on them.
        let warnings = ["--disable", "xcstrings.format-mismatch", "--disable", "xcstrings.structure"]
        #expect(try CLI.run(["lint", "--no-config", "Samples/catalog"] + warnings).status == 0)
        #expect(try CLI.run(["lint", "--no-config", "--strict", "Samples/catalog"] + warnings).status == 1)
        // Catalog findings have key paths, so a baseline accepts them.
        let baseline = try CLI.temporaryDirectory().appendingPathComponent("baseline.json").path
        #expect(try CLI.run(["lint", "--no-config", "Samples/catalog", "--write-baseline", baseline]).status == 0)
        let accepted = try CLI.run(["lint", "--no-config", "Samples/catalog", "--baseline", baseline])
        #expect(accepted.status == 0 && accepted.stdout.isEmpty, "\(accepted.stdout)")
    }

    /// An .xcstrings file is read as JSON only: a syntax error is plist.syntax with the JSON
    /// reader's line and column, and an XML plist named .xcstrings is not accepted.
    @Test func stringCatalogSyntaxErrors() throws {
        let dir = try CLI.temporaryDirectory()
        try "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {,}\n}\n".write(to: dir.appendingPathComponent("Bad.xcstrings"), atomically: true, encoding: .utf8)
        try "<plist version=\"1.0\"><dict/></plist>\n".write(to: dir.appendingPathComponent("Xml.xcstrings"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", "--no-config", "Bad.xcstrings", "Xml.xcstrings"], cwd: dir)
        #expect(r.stdout == """
            Bad.xcstrings:3:16: error: expected a string key in double quotes, found ',' [plist.syntax]
            Xml.xcstrings:1:1: error: unexpected '<': expected a JSON value [plist.syntax]

            """)
        #expect(r.status == 1)
    }

    /// The JUnit and Checkstyle reports of the samples pass xmllint's check against the XSDs
    /// of Tests/LintKitTests/Fixtures; a clean run is a valid, empty report.
    @Test(arguments: [("junit", "junit.xsd"), ("checkstyle", "checkstyle.xsd")])
    func xmlFormatsValidate(_ format: String, _ schema: String) throws {
        for arguments in [Self.all, ["lint", "--no-config", "Samples/lint/Clean"]] {
            let r = try CLI.run(arguments + ["--format", format])
            guard let check = try XMLSchemaCheck.validate(r.stdout, against: schema) else {
                return print("skipped: xmllint missing (Scripts/install-deps installs libxml2-utils)")
            }
            #expect(check.status == 0, "\(check.stderr)")
        }
    }

    /// Findings in a binary plist have byte offsets, not lines: the XML formats still validate
    /// (no line attribute; the offset in the message), GitLab points them at line 1.
    @Test func binaryPlistFindingsInEveryCIFormat() throws {
        let dir = try CLI.temporaryDirectory()
        let binary = dir.appendingPathComponent("Info.plist").path
        #expect(try CLI.run(["plist", "convert", "Samples/lint/App/Info.plist", "--to", "binary", "-o", binary]).status == 0)
        for (format, schema) in [("junit", "junit.xsd"), ("checkstyle", "checkstyle.xsd")] {
            let r = try CLI.run(["lint", "--no-config", binary, "--format", format])
            #expect(r.status == 1)
            #expect(r.stdout.contains("offset 0x163"), "\(r.stdout)")
            if let check = try XMLSchemaCheck.validate(r.stdout, against: schema) { #expect(check.status == 0, "\(check.stderr)") }
        }
        let checkstyle = try CLI.run(["lint", "--no-config", binary, "--format", "checkstyle"]).stdout
        #expect(!checkstyle.contains("line="), "\(checkstyle)")
        let gitlab = try CLI.run(["lint", "--no-config", binary, "--format", "gitlab"])
        let issues = try #require(try JSONSerialization.jsonObject(with: gitlab.stdoutBytes) as? [[String: Any]])
        #expect(!issues.isEmpty)
        for issue in issues {
            #expect((issue["description"] as? String)?.hasPrefix("offset 0x") == true, "\(issue)")
            #expect(((issue["location"] as? [String: Any])?["lines"] as? [String: Any])?["begin"] as? Int == 1)
        }
    }

    /// GitLab tells findings apart by fingerprint: unique in the samples' report.
    @Test func gitlabFingerprintsAreUnique() throws {
        let r = try CLI.run(Self.all + ["--format", "gitlab"])
        let issues = try #require(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]])
        let prints = issues.compactMap { $0["fingerprint"] as? String }
        #expect(prints.count == issues.count && Set(prints).count == prints.count, "\(prints)")
        #expect(issues.count > 10)
    }

    /// --color: always and never as told (always wins over NO_COLOR, which the harness sets);
    /// auto colours only a terminal without NO_COLOR (run under script(1) for a terminal).
    @Test func colorChoice() throws {
        let file = "Samples/lint/App/App.entitlements"
        let plain = try CLI.run(["lint", "--no-config", file])
        #expect(!plain.stdout.contains("\u{1B}") && plain.status == 1)
        let always = try CLI.run(["lint", "--no-config", "--color", "always", file])
        #expect(always.status == 1)
        #expect(always.stdout.hasPrefix("\u{1B}[1mSamples/lint/App/App.entitlements:7:2:\u{1B}[0m \u{1B}[1;31merror:\u{1B}[0m aps-environment"), "\(always.stdout)")
        #expect(always.stdout.replacing(/\x{1B}\[[0-9;]*m/, with: "") == plain.stdout)
        #expect(try CLI.run(["lint", "--no-config", "--color", "never", file]).stdout == plain.stdout)
        // Only the text format is coloured.
        #expect(!(try CLI.run(["lint", "--no-config", "--color", "always", "--format", "json", file]).stdout.contains("\u{1B}")))

        guard let script = TestProcess.find("script") else { return print("skipped: script(1) missing") }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["TERM"] = "xterm-256color"
        let command = "'\(CLI.binary.path)' lint --no-config \(file)"
        let terminal = try TestProcess.run(script, ["-qec", command, "/dev/null"], environment: environment, cwd: CLI.repoRoot)
        #expect(terminal.stdout.contains("\u{1B}[1;31merror:"), "\(terminal.stdout)")
        environment["NO_COLOR"] = "1"
        let noColor = try TestProcess.run(script, ["-qec", command, "/dev/null"], environment: environment, cwd: CLI.repoRoot)
        #expect(noColor.stdout.contains("error: aps-environment"), "\(noColor.stdout)")
        #expect(!noColor.stdout.contains("\u{1B}"), "\(noColor.stdout)")
    }

    @Test func cleanFileExitsZero() throws {
        let r = try CLI.run(["lint", "--no-config", "Samples/lint/Clean"])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
    }

    @Test func strictFailsOnWarnings() throws {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("Info.plist")
        let text = try String(contentsOf: CLI.samples.appendingPathComponent("lint/Clean/Info.plist"), encoding: .utf8)
            .replacingOccurrences(of: "</dict>", with: "\t<key>UIApplicationExitsOnSuspend</key>\n\t<true/>\n</dict>")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let relaxed = try CLI.run(["lint", "--no-config", file.path])
        #expect(relaxed.status == 0)
        #expect(relaxed.stdout.contains("warning: UIApplicationExitsOnSuspend is deprecated"))
        #expect(try CLI.run(["lint", "--no-config", "--strict", file.path]).status == 1)
    }

    @Test func usageAndInputErrorsExitTwo() throws {
        let unknown = try CLI.run(["lint", "--explain", "infoplist.short-version"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "error: unknown rule \"infoplist.short-version\"; did you mean \"infoplist.short-version-format\"? (devkit lint --list-rules lists them)\n")
        let missing = try CLI.run(["lint", "--no-config", "Samples/lint/Nope.plist"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "Samples/lint/Nope.plist: error: no such file or directory\n")
        #expect(try CLI.run(["lint", "--enable", "bogus"]).status == 2)
        #expect(try CLI.run(["lint", "--format", "xml"]).status == 2)
    }

    /// An .app named on the command line is also checked as a bundle (apps built by
    /// Scripts/fixtures/make-privacy-app): required-reason imports against its manifests.
    @Test func appBundle() throws {
        let bad = try CLI.run(["lint", "--no-config", try PrivacyApp.path("Bad.app")])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("/Bad.app/Bad: error: Bad imports _stat (stat), a required-reason API, but "))
        #expect(bad.stdout.contains("(ITMS-91061); update the SDK to a release that has one [privacy.sdk-missing-manifest]"))
        #expect(bad.stdout.contains("/Bad.app/PrivacyInfo.xcprivacy:12:5: error: reason C617.1 is for NSPrivacyAccessedAPICategoryFileTimestamp"))
        let disabled = try CLI.run(["lint", "--no-config", "--disable", "privacy.missing-api-declaration", "--disable", "privacy.sdk-missing-manifest",
                                    "--disable", "privacy.accessed-api-reason", try PrivacyApp.path("Bad.app")])
        #expect(disabled.status == 0, "\(disabled.stdout)")
        let good = try CLI.run(["lint", "--no-config", try PrivacyApp.path("Good.app")])
        #expect(good.status == 0, "\(good.stdout)")
        #expect(good.stdout.isEmpty)
        // Each extension's Info.plist against its app's, at the key.
        let extensions = try CLI.run(["lint", "--no-config", try PrivacyApp.path("Extensions.app")])
        #expect(extensions.status == 1)
        #expect(extensions.stdout.contains("/Extensions.app/PlugIns/Stale.appex/Info.plist:15:2: warning: CFBundleVersion \"20\" differs from the app's \"21\" (App Store Connect: CFBundleVersion Mismatch) [extension.version-match]"))
        #expect(!extensions.stdout.contains("Share.appex"))
    }

    /// An .ipa is linted as the app inside it, bundle checks included; findings name the
    /// archive, the unpacked copy is gone afterwards, and a hostile archive is one line, exit 2.
    @Test func ipaArchive() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scratch = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let app = try PrivacyApp.path("Extensions.app")
        let ipa = dir.appendingPathComponent("Extensions.ipa").path
        let hostile = dir.appendingPathComponent("Hostile.ipa").path
        let python = try #require(TestProcess.find("python3"))
        let zip = try TestProcess.run(python, ["-c", """
            import os, sys, zipfile
            app, ipa, hostile = sys.argv[1:4]
            with zipfile.ZipFile(ipa, "w", zipfile.ZIP_DEFLATED) as z:
                for folder, _, files in os.walk(app):
                    for f in files:
                        path = os.path.join(folder, f)
                        z.write(path, "Payload/Extensions.app/" + os.path.relpath(path, app))
            with zipfile.ZipFile(hostile, "w") as z:
                z.writestr("Payload/Evil.app/Info.plist", "<plist/>")
                z.writestr("Payload/Evil.app/../../escape.txt", "x")
            """, app, ipa, hostile])
        #expect(zip.status == 0, "\(zip.stderr)")
        let r = try CLI.run(["lint", "--no-config", ipa], environment: ["TMPDIR": scratch.path])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.contains("\(ipa)!Payload/Extensions.app/PlugIns/Stale.appex/Info.plist:15:2: warning: CFBundleVersion \"20\" differs from the app's \"21\""), "\(r.stdout)")
        #expect(r.stdout.split(separator: "\n").count == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "the unpacked copy was left behind")
        let bad = try CLI.run(["lint", "--no-config", hostile], environment: ["TMPDIR": scratch.path])
        #expect(bad.status == 2)
        #expect(bad.stderr == "\(hostile): error: entry \"Payload/Evil.app/../../escape.txt\" has an unsafe path (absolute or with ../); refusing the archive\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("escape.txt").path))
        let fix = try CLI.run(["lint", "--no-config", "--fix", ipa])
        #expect(fix.status == 2)
        #expect(fix.stderr.contains("--fix cannot change files inside an archive"))
    }

    @Test func listAndExplain() throws {
        let list = try CLI.run(["lint", "--list-rules"])
        #expect(list.status == 0)
        try CLI.assertSnapshot(list.stdout, named: "devkit-lint-list-rules.txt")
        let explain = try CLI.run(["lint", "--explain", "infoplist.short-version-format"])
        #expect(explain.status == 0)
        try CLI.assertSnapshot(explain.stdout, named: "devkit-lint-explain.txt")
    }

    /// --fix rewrites only the fixed nodes (golden files), and the rewritten files lint
    /// clean for the fixed rules.
    @Test func fixInPlace() throws {
        let dir = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(at: CLI.samples.appendingPathComponent("lint/App"), to: dir.appendingPathComponent("App"))
        let flags = ["--no-config", "--project-dir", "App", "--configuration", "release"]
        let r = try CLI.run(["lint", "App", "--fix"] + flags, cwd: dir)
        #expect(r.status == 1)
        #expect(r.stderr == "fixed App/App.entitlements\nfixed App/Info.plist\n")
        try CLI.assertSnapshot(r.stdout, named: "devkit-lint-after-fix.txt")
        for name in ["Info.plist", "App.entitlements"] {
            let fixed = try String(contentsOf: dir.appendingPathComponent("App/\(name)"), encoding: .utf8)
            try CLI.assertSnapshot(fixed, named: "devkit-lint-fixed-\(name).txt")
        }
        // A second --fix has nothing left to do: the files stay byte-identical.
        let before = try Data(contentsOf: dir.appendingPathComponent("App/Info.plist"))
        let again = try CLI.run(["lint", "App", "--fix"] + flags, cwd: dir)
        #expect(again.stderr.isEmpty)
        #expect(again.stdout == r.stdout)
        #expect(try Data(contentsOf: dir.appendingPathComponent("App/Info.plist")) == before)
    }

    /// The nearest .devkit.yml above the current directory applies; the command line wins.
    @Test func configFoundUpward() throws {
        let dir = try CLI.temporaryDirectory()
        let sub = dir.appendingPathComponent("App/Sources")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.samples.appendingPathComponent("lint/App/App.entitlements"), to: dir.appendingPathComponent("App/App.entitlements"))
        try """
            lint:
              disabled_rules: [entitlements.unknown-key]
              severity: {entitlements.aps-environment: warning}
              exclude: ["App/Sources"]
            """.write(to: dir.appendingPathComponent(".devkit.yml"), atomically: true, encoding: .utf8)
        try "x".write(to: sub.appendingPathComponent("Broken.plist"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", ".."], cwd: sub)
        #expect(r.stdout == [
            #"../App.entitlements:7:2: warning: aps-environment is "Production"; it must be "development" or "production" [entitlements.aps-environment]"#,
            #"../App.entitlements:18:3: error: keychain access group "ZYXWV98765.com.example.shared" does not start with the team prefix "ABCDE12345." of application-identifier [entitlements.team-prefix]"#,
        ].map { $0 + "\n" }.joined())
        #expect(r.status == 1)
        let cli = try CLI.run(["lint", "..", "--enable", "entitlements.unknown-key", "--disable", "entitlements.team-prefix"], cwd: sub)
        #expect(cli.stdout.contains("[entitlements.unknown-key]"))
        #expect(!cli.stdout.contains("[entitlements.team-prefix]"))
        #expect(cli.status == 0)
        let bad = try CLI.run(["lint", "..", "--config", "../../.devkit.yml", "--disable", "nope"], cwd: sub)
        #expect(bad.status == 2)
    }

    /// A .devkit.yml that libyaml cannot parse: one line naming the file, line and column; exit 2.
    @Test func configSyntaxErrorNamesLineAndColumn() throws {
        let dir = try CLI.temporaryDirectory()
        try "lint:\n  disabled_rules: [a, b\n".write(to: dir.appendingPathComponent(".devkit.yml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", "--config", ".devkit.yml", "."], cwd: dir)
        #expect(r.status == 2)
        #expect(r.stderr.hasSuffix("/.devkit.yml:3:1: error: not valid YAML: did not find expected ',' or ']' (while parsing a flow sequence at 2:19)\n"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func gitignoredAndHiddenFilesSkipped() throws {
        let dir = try CLI.temporaryDirectory()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("build"), withIntermediateDirectories: true)
        try "build/\n".write(to: dir.appendingPathComponent(".gitignore"), atomically: true, encoding: .utf8)
        for path in ["build/Info.plist", ".hidden.plist", "ok.plist"] {
            try "<plist><dict><key></key><true/></dict></plist>".write(to: dir.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        let r = try CLI.run(["lint", "--no-config"], cwd: dir)
        #expect(r.stdout == "ok.plist:1:14: warning: empty dictionary key [plist.empty-key]\n")
    }
}
