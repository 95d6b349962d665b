import Foundation
import Testing

/// `devkit lint --write-baseline` and `--baseline` end to end, on a copy of Samples/lint/App.
@Suite struct LintBaselineCommandTests {
    static let flags = ["--no-config", "--project-dir", "App", "--configuration", "release"]

    /// A copy of the sample app in a fresh directory, and a baseline of its findings there.
    static func project() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(at: CLI.samples.appendingPathComponent("lint/App"), to: dir.appendingPathComponent("App"))
        let write = try CLI.run(["lint", "App", "--write-baseline", "baseline.json"] + flags, cwd: dir)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(write.stdout.isEmpty)
        #expect(write.stderr == "baseline.json: 11 findings written to the baseline\n")
        return dir
    }

    static func edit(_ file: URL, _ change: (String) -> String) throws {
        try change(try String(contentsOf: file, encoding: .utf8)).write(to: file, atomically: true, encoding: .utf8)
    }

    @Test func theBaselineSilencesWhatItHolds() throws {
        let dir = try Self.project()
        let r = try CLI.run(["lint", "App", "--baseline", "baseline.json"] + Self.flags, cwd: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.isEmpty && r.stderr.isEmpty)
        // Without it, the same run fails.
        #expect(try CLI.run(["lint", "App"] + Self.flags, cwd: dir).status == 1)
    }

    @Test func onlyANewProblemIsReported() throws {
        let dir = try Self.project()
        try Self.edit(dir.appendingPathComponent("App/Info.plist")) {
            $0.replacingOccurrences(of: "\t<string>com.example.devkit-demo</string>", with: "\t<string>com.example.devkit demo</string>")
        }
        let r = try CLI.run(["lint", "App", "--baseline", "baseline.json"] + Self.flags, cwd: dir)
        #expect(r.status == 1)
        #expect(r.stdout.split(separator: "\n").count == 1, "\(r.stdout)")
        #expect(r.stdout.hasPrefix("App/Info.plist:9:2: error: CFBundleIdentifier "), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("[infoplist.bundle-identifier-format]\n"), "\(r.stdout)")
    }

    /// Lines added above the findings move every one of them: none comes back.
    @Test func anUnrelatedEditAboveStillSuppresses() throws {
        let dir = try Self.project()
        try Self.edit(dir.appendingPathComponent("App/Info.plist")) {
            $0.replacingOccurrences(of: "<dict>\n", with: "<dict>\n\t<!-- a comment -->\n\t<key>CFBundleName</key>\n\t<string>Demo</string>\n")
        }
        let moved = try CLI.run(["lint", "App"] + Self.flags, cwd: dir)
        #expect(moved.stdout.contains("App/Info.plist:16:2: error: CFBundleShortVersionString"), "the edit moved the findings: \(moved.stdout)")
        let r = try CLI.run(["lint", "App", "--baseline", "baseline.json"] + Self.flags, cwd: dir)
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout.isEmpty)
    }

    /// A baseline that is not JSON, or not a baseline: one line naming the file, line and
    /// column; exit 2.
    @Test func aMalformedBaselineIsOneLineWithItsPosition() throws {
        let dir = try Self.project()
        try Self.edit(dir.appendingPathComponent("baseline.json")) { $0.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 1") }
        let r = try CLI.run(["lint", "App", "--baseline", "baseline.json"] + Self.flags, cwd: dir)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "baseline.json:3:3: error: not a baseline: expected ',' or '}' after an object member, found '\"'\n", "\(r.stderr)")
        try "{\"version\": 1, \"findings\": [{\"rule\": \"x\"}]}".write(to: dir.appendingPathComponent("shape.json"), atomically: true, encoding: .utf8)
        let shape = try CLI.run(["lint", "App", "--baseline", "shape.json"] + Self.flags, cwd: dir)
        #expect(shape.status == 2)
        #expect(shape.stderr == "shape.json:1:29: error: not a baseline: findings.0.file must be a string\n")
        let missing = try CLI.run(["lint", "App", "--baseline", "nope.json"] + Self.flags, cwd: dir)
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("nope.json: error: "), "\(missing.stderr)")
    }

    /// Rewriting a baseline replaces it whole (temporary file, rename): no temporary file is
    /// left beside it, and a symlinked baseline stays a symlink to the rewritten file.
    @Test func writingReplacesTheFileAtomically() throws {
        let dir = try Self.project()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("ci"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: dir.appendingPathComponent("baseline.json"), to: dir.appendingPathComponent("ci/baseline.json"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("baseline.json").path, withDestinationPath: "ci/baseline.json")
        try Self.edit(dir.appendingPathComponent("App/Info.plist")) { $0.replacingOccurrences(of: "<string>142 </string>", with: "<string>142</string>") }
        let r = try CLI.run(["lint", "App", "--write-baseline", "baseline.json"] + Self.flags, cwd: dir)
        #expect(r.status == 0)
        #expect(r.stderr == "baseline.json: 10 findings written to the baseline\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("ci").path) == ["baseline.json"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("baseline.json").path) == "ci/baseline.json")
        let text = try String(contentsOf: dir.appendingPathComponent("ci/baseline.json"), encoding: .utf8)
        #expect(!text.contains("infoplist.bundle-version-format"))
    }

    /// `-` is standard output for --write-baseline and standard input for --baseline.
    @Test func standardStreams() throws {
        let dir = try Self.project()
        let written = try CLI.run(["lint", "App", "--write-baseline", "-"] + Self.flags, cwd: dir)
        #expect(written.status == 0)
        #expect(written.stderr == "<stdout>: 11 findings written to the baseline\n")
        #expect(written.stdout == (try String(contentsOf: dir.appendingPathComponent("baseline.json"), encoding: .utf8)))
        let read = try CLI.run(["lint", "App", "--baseline", "-"] + Self.flags, stdin: written.stdoutBytes, cwd: dir)
        #expect(read.status == 0 && read.stdout.isEmpty, "\(read.stdout)\(read.stderr)")
    }

    /// A path that cannot be linted leaves the baseline unwritten: it would miss its findings.
    @Test func noBaselineFromAnIncompleteRun() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["lint", "--no-config", "missing.plist", "--write-baseline", "baseline.json"], cwd: dir)
        #expect(r.status == 2)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("baseline.json").path))
    }

    @Test func baselineAndWriteBaselineTogetherAreRefused() throws {
        let r = try CLI.run(["lint", "--baseline", "a.json", "--write-baseline", "b.json"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("Error: --baseline and --write-baseline cannot be used together.\n"), "\(r.stderr)")
    }
}
