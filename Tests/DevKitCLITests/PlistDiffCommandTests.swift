import Foundation
import Testing
import PropertyList

/// `devkit plist diff` and `devkit plist textconv` end to end.
@Suite struct PlistDiffCommandTests {
    /// Samples/Info.plist with one change of each kind, written as a binary plist to `dir`.
    static func modifiedInfo(in dir: URL) throws -> URL {
        let bytes = [UInt8](try Data(contentsOf: CLI.samples.appendingPathComponent("Info.plist")))
        guard case .dictionary(var root) = try PropertyListCoding.read(bytes).value else {
            Issue.record("Samples/Info.plist is not a dictionary")
            return dir
        }
        root["CFBundleVersion"] = .string("143")
        root["LSRequiresIPhoneOS"] = .string("YES")
        root["MinimumOSVersion"] = nil
        root["CFBundleURLTypes"] = .array([
            .dictionary(["CFBundleURLName": .string("com.example.devkit-demo"), "CFBundleURLSchemes": .array([.string("devkit-demo2")])]),
            .dictionary(["CFBundleURLSchemes": .array([.string("devkit-beta")])]),
        ])
        root["UIRequiredDeviceCapabilities"] = .array([.string("metal"), .string("arm64")])
        root["Count"] = .int(3)
        let url = dir.appendingPathComponent("Info-modified.bplist")
        try Data(try PropertyListCoding.write(.dictionary(root), as: .binary)).write(to: url)
        return url
    }

    @Test func diffText() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let modified = try Self.modifiedInfo(in: dir)
        let r = try CLI.run(["plist", "diff", "Samples/Info.plist", modified.path])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        try CLI.assertSnapshot(r.stdout, named: "diff-Info-text.txt")
    }

    /// --color always colours each line as git diff does; without the codes it is the plain
    /// report. Not a terminal (the test's pipe): auto and never print no codes.
    @Test func diffInColour() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let modified = try Self.modifiedInfo(in: dir)
        let plain = try CLI.run(["plist", "diff", "Samples/Info.plist", modified.path])
        let coloured = try CLI.run(["plist", "diff", "--color", "always", "Samples/Info.plist", modified.path], environment: ["NO_COLOR": "1"])
        #expect(coloured.status == 1)
        #expect(coloured.stdout.contains("\u{1B}[32m+ ") && coloured.stdout.contains("\u{1B}[31m- ") && coloured.stdout.contains("\u{1B}[33m~ "))
        let stripped = ["\u{1B}[32m", "\u{1B}[31m", "\u{1B}[33m", "\u{1B}[0m"].reduce(coloured.stdout) { $0.replacing($1, with: "") }
        #expect(stripped == plain.stdout)
        for choice in ["auto", "never"] {
            #expect(try CLI.run(["plist", "diff", "--color", choice, "Samples/Info.plist", modified.path]).stdout == plain.stdout)
        }
    }

    @Test func diffJSON() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let modified = try Self.modifiedInfo(in: dir)
        let r = try CLI.run(["plist", "diff", "--format", "json", "Samples/Info.plist", modified.path])
        #expect(r.status == 1, "\(r.stderr)")
        try CLI.assertSnapshot(r.stdout, named: "diff-Info-json.txt")
        // The report is valid JSON.
        let parsed = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]]
        #expect(parsed?.first?["change"] as? String == "changed")
    }

    @Test func diffOfEqualValuesAcrossFormatsExitsZero() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = dir.appendingPathComponent("Info.bplist")
        let bytes = [UInt8](try Data(contentsOf: CLI.samples.appendingPathComponent("Info.plist")))
        try Data(try PropertyListCoding.write(try PropertyListCoding.read(bytes).value, as: .binary)).write(to: binary)
        let r = try CLI.run(["plist", "diff", "Samples/Info.plist", binary.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let json = try CLI.run(["plist", "diff", "--format", "json", binary.path, "Samples/Info.plist"])
        #expect(json.status == 0)
        #expect(json.stdout.isEmpty)
    }

    @Test func diffFromStandardInput() throws {
        let bytes = try Data(contentsOf: CLI.samples.appendingPathComponent("Settings.bplist"))
        let r = try CLI.run(["plist", "diff", "-", "Samples/Settings.bplist"], stdin: bytes)
        #expect(r.status == 0, "\(r.stderr)")
        let both = try CLI.run(["plist", "diff", "-", "-"])
        #expect(both.status == 2)
    }

    @Test(arguments: [
        (["plist", "diff", "Samples/Info.plist", "Samples/nope.plist"], "Samples/nope.plist: error: No such file or directory\n"),
        (["plist", "diff", "Samples/Broken.plist", "Samples/Info.plist"], "Samples/Broken.plist:9:6: error: duplicate key \"CFBundleVersion\" (first defined at 7:6)\n"),
        (["plist", "textconv", "Samples/Broken.plist"], "Samples/Broken.plist:9:6: error: duplicate key \"CFBundleVersion\" (first defined at 7:6)\n"),
    ])
    func inputErrorsExitTwo(arguments: [String], message: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr == message)
        #expect(r.stdout.isEmpty)
    }

    @Test func usageErrorsExitTwo() throws {
        let r = try CLI.run(["plist", "diff", "Samples/Info.plist"])
        #expect(r.status == 2)
        let format = try CLI.run(["plist", "diff", "--format", "yaml", "Samples/Info.plist", "Samples/Info.plist"])
        #expect(format.status == 2)
    }

    @Test func helpHasExamples() throws {
        for command in ["diff", "textconv"] {
            let help = try CLI.run(["plist", command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("Examples:"), "\(command)")
        }
    }

    @Test func textconvPrintsTheTreeWithoutColour() throws {
        let r = try CLI.run(["plist", "textconv", "Samples/Settings.bplist"], environment: ["NO_COLOR": "", "TERM": "xterm-256color"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("\u{1B}"))
        try CLI.assertSnapshot(r.stdout, named: "textconv-Settings.txt")
    }

    @Test func textconvInsideGitDiff() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func git(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git"] + arguments
            process.currentDirectoryURL = dir
            var environment = ProcessInfo.processInfo.environment
            // Only this repository's configuration counts.
            environment["GIT_CONFIG_NOSYSTEM"] = "1"
            environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
            environment["HOME"] = dir.path
            process.environment = environment
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments.joined(separator: " "))")
            return String(decoding: data, as: UTF8.self)
        }
        _ = try git(["init", "-q"])
        _ = try git(["config", "user.email", "devkit@example.com"])
        _ = try git(["config", "user.name", "devkit tests"])
        _ = try git(["config", "diff.plist.textconv", "'\(CLI.binary.path)' plist textconv"])
        try "*.plist diff=plist\n".write(to: dir.appendingPathComponent(".gitattributes"), atomically: true, encoding: .utf8)

        let file = dir.appendingPathComponent("Settings.plist")
        let settings: PlistValue = .dictionary(["LaunchCount": .int(17), "Theme": .string("dark")])
        try Data(try PropertyListCoding.write(settings, as: .binary)).write(to: file)
        _ = try git(["add", "."])
        _ = try git(["commit", "-q", "-m", "binary plist"])

        let changed: PlistValue = .dictionary(["LaunchCount": .int(18), "Theme": .string("dark")])
        try Data(try PropertyListCoding.write(changed, as: .binary)).write(to: file)
        let diff = try git(["diff"])
        #expect(!diff.contains("Binary files"))
        #expect(diff.contains("-  \"LaunchCount\" => 17"))
        #expect(diff.contains("+  \"LaunchCount\" => 18"))
    }
}
