import Foundation
import Testing
import PropertyList

/// `devkit plist …` end to end: outputs, exit codes, files on disk.
@Suite struct PlistCommandTests {
    @Test func printTree() throws {
        let r = try CLI.run(["plist", "print", "Samples/Info.plist"])
        #expect(r.status == 0)
        try CLI.assertSnapshot(r.stdout, named: "print-Info.txt")
    }

    @Test func printKeyPathsOfBinary() throws {
        let r = try CLI.run(["plist", "print", "--keypaths", "Samples/Settings.bplist"])
        #expect(r.status == 0)
        try CLI.assertSnapshot(r.stdout, named: "print-keypaths-Settings.txt")
    }

    @Test func printShowsTypesWithColor() throws {
        let r = try CLI.run(["plist", "print", "--color", "always", "Samples/config.json"])
        #expect(r.stdout.contains("\u{1B}[2minteger\u{1B}[0m"))
    }

    @Test func printFromStandardInput() throws {
        let bytes = try Data(contentsOf: CLI.samples.appendingPathComponent("Settings.bplist"))
        let r = try CLI.run(["plist", "print", "-"], stdin: bytes)
        #expect(r.status == 0)
        #expect(r.stdout.contains("\"LaunchCount\" => 17"))
    }

    @Test func getForms() throws {
        let dotted = try CLI.run(["plist", "get", "Samples/Info.plist", "CFBundleURLTypes.0.CFBundleURLSchemes.0", "--raw"])
        #expect(dotted.status == 0)
        #expect(dotted.stdout == "devkit-demo\n")
        let buddy = try CLI.run(["plist", "get", "Samples/Info.plist", ":CFBundleURLTypes:0:CFBundleURLName"])
        #expect(buddy.stdout == "\"com.example.devkit-demo\"\n")
        let escaped = try CLI.run(["plist", "get", "Samples/App.entitlements", "com\\.apple\\.developer\\.icloud-services", "--format", "json"])
        #expect(escaped.status == 0)
        #expect(escaped.stdout == "[\n  \"CloudKit\"\n]\n")
    }

    @Test func getMissingKeyListsWhatExists() throws {
        let r = try CLI.run(["plist", "get", "Samples/Info.plist", "CFBundleURLTypes.0.Nope"])
        #expect(r.status == 2)
        #expect(r.stderr == "Samples/Info.plist: error: key \"Nope\" not found in \"CFBundleURLTypes.0\"; keys there: \"CFBundleURLName\", \"CFBundleURLSchemes\"\n")
        let index = try CLI.run(["plist", "get", "Samples/Info.plist", "CFBundleURLTypes.3"])
        #expect(index.stderr.contains("index 3 is out of range: \"CFBundleURLTypes\" is an array of 1"))
    }

    @Test func convertRoundTripsThroughEveryFormat() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = try PropertyListCoding.read([UInt8](try Data(contentsOf: CLI.samples.appendingPathComponent("Info.plist")))).value
        var input = "Samples/Info.plist"
        for format in ["binary", "json", "openstep", "xml"] {
            let output = dir.appendingPathComponent("Info.\(format)").path
            let r = try CLI.run(["plist", "convert", input, "--to", format, "-o", output])
            #expect(r.status == 0, "\(format): \(r.stderr)")
            let value = try PropertyListCoding.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))).value
            // OpenStep has no booleans of its own: devkit writes GNUstep's <*BY>, which it reads back.
            #expect(value == original, "\(format)")
            input = output
        }
        let final = try Data(contentsOf: dir.appendingPathComponent("Info.xml"))
        #expect(final == (try Data(contentsOf: CLI.samples.appendingPathComponent("Info.plist"))))
    }

    /// A binary file going to XML or JSON is transcoded from its mapping; standard input is
    /// read. Both give the same bytes, and the same status and message (but for the name) on
    /// every cut of the file, including the cuts the transcoder gives up on.
    @Test func mappedBinaryInputConvertsAsReadInputDoes() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = dir.appendingPathComponent("Info.bplist")
        #expect(try CLI.run(["plist", "convert", "Samples/Info.plist", "--to", "binary", "-o", binary.path]).status == 0)
        let whole = try Data(contentsOf: binary)
        let output = dir.appendingPathComponent("out").path
        for length in [whole.count, whole.count - 1, whole.count - 33, whole.count / 2, 9] {
            let cut = dir.appendingPathComponent("cut-\(length).bplist")
            try whole.prefix(length).write(to: cut)
            for format in ["xml", "json"] {
                try? FileManager.default.removeItem(atPath: output)
                let mapped = try CLI.run(["plist", "convert", cut.path, "--to", format, "-o", output])
                let read = try CLI.run(["plist", "convert", "-", "--to", format, "-o", "-"], stdin: whole.prefix(length))
                #expect(mapped.status == read.status, "\(length) \(format)")
                #expect(mapped.stderr.replacingOccurrences(of: cut.path, with: "<stdin>") == read.stderr, "\(length) \(format)")
                if read.status == 0 {
                    #expect(try String(contentsOfFile: output, encoding: .utf8) == read.stdout, "\(length) \(format)")
                } else {
                    #expect(!FileManager.default.fileExists(atPath: output))
                }
            }
        }
    }

    @Test func convertInPlaceKeepsPermissionsAndIsAtomic() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Info.plist")
        try FileManager.default.copyItem(at: CLI.samples.appendingPathComponent("Info.plist"), to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
        let r = try CLI.run(["plist", "convert", file.path, "--to", "binary", "--in-place"])
        #expect(r.status == 0, "\(r.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        #expect(try Data(contentsOf: file).prefix(8) == Data("bplist00".utf8))
        // No temporary files left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["Info.plist"])
    }

    @Test func convertFailureLeavesTargetUntouched() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Settings.bplist")
        try FileManager.default.copyItem(at: CLI.samples.appendingPathComponent("Settings.bplist"), to: file)
        let before = try Data(contentsOf: file)
        // JSON cannot hold... everything here it can (dates/data become strings), so use a UID.
        let uid = try PropertyListCoding.write(.array([.uid(3)]), as: .binary)
        try Data(uid).write(to: file)
        let r = try CLI.run(["plist", "convert", file.path, "--to", "json", "--in-place"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("cannot write as json"))
        #expect(try Data(contentsOf: file) == Data(uid))
        _ = before
    }

    /// Like plutil and plistutil, JSON refuses a date or data (naming its key path) unless
    /// --lossy; plutil's format names xml1 and binary1 are accepted.
    @Test func convertToJSONRefusesDatesUnlessLossy() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Dated.plist")
        try Data(try PropertyListCoding.write(.dictionary(["list": .array([.string("a"), .data([1, 2])])]), as: .xml)).write(to: file)
        let strict = try CLI.run(["plist", "convert", file.path, "--to", "json"])
        #expect(strict.status == 2)
        #expect(strict.stderr == "\(file.path): error: cannot write as json: cannot write JSON: root[\"list\"][1]: JSON cannot hold data (2 bytes) (--lossy writes dates and data as strings)\n")
        let lossy = try CLI.run(["plist", "convert", file.path, "--to", "json", "--lossy"])
        #expect(lossy.stdout == "{\n  \"list\": [\n    \"a\",\n    \"AQI=\"\n  ]\n}\n")
        let binary = dir.appendingPathComponent("Dated.bplist")
        #expect(try CLI.run(["plist", "convert", file.path, "--to", "binary1", "-o", binary.path]).status == 0)
        #expect(try CLI.run(["plist", "convert", binary.path, "--to", "xml1"]).stdout == String(decoding: try Data(contentsOf: file), as: UTF8.self))
    }

    @Test func lintReportsEveryBadFileAndGoesOn() throws {
        let r = try CLI.run(["plist", "lint", "Samples/Info.plist", "Samples/Broken.plist", "Samples/Settings.bplist", "Samples/missing.plist"])
        #expect(r.status == 1)
        try CLI.assertSnapshot(r.stdout, named: "lint-text.txt")
        let json = try CLI.run(["plist", "lint", "--format", "json", "Samples/Broken.plist"])
        #expect(json.status == 1)
        try CLI.assertSnapshot(json.stdout, named: "lint-json.txt")
        let clean = try CLI.run(["plist", "lint", "Samples/Info.plist", "Samples/config.json", "Samples/Localizable.strings"])
        #expect(clean.status == 0)
        #expect(clean.stdout.isEmpty)
    }

    @Test func lintNamesByteOffsetsInBinaryFiles() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("cut.bplist")
        let bytes = try Data(contentsOf: CLI.samples.appendingPathComponent("Settings.bplist"))
        try bytes.prefix(bytes.count - 3).write(to: file)
        let r = try CLI.run(["plist", "lint", file.path])
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("\(file.path): offset 0x"))
    }

    @Test(arguments: [
        (["plist", "print", "Samples/nope.plist"], "Samples/nope.plist: error: No such file or directory\n"),
        (["plist", "print", "Samples"], "Samples: error: is a directory\n"),
        (["plist", "print", "Samples/Broken.plist"], "Samples/Broken.plist:9:6: error: duplicate key \"CFBundleVersion\" (first defined at 7:6)\n"),
    ])
    func inputErrorsExitTwo(arguments: [String], message: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr == message)
        #expect(r.stdout.isEmpty)
    }

    @Test func emptyFileAndStdin() throws {
        let r = try CLI.run(["plist", "print", "-"], stdin: Data())
        #expect(r.status == 2)
        #expect(r.stderr == "<stdin>: offset 0x0: error: file is empty\n")
    }

    @Test func usageErrorsExitTwo() throws {
        let r = try CLI.run(["plist", "convert", "Samples/Info.plist", "--to", "yaml"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("yaml"))
        let both = try CLI.run(["plist", "convert", "Samples/Info.plist", "--to", "xml", "--in-place", "-o", "x"])
        #expect(both.status == 2)
    }

    @Test func versionHelpAndCompletions() throws {
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("0."))
        let help = try CLI.run(["plist", "get", "--help"])
        #expect(help.stdout.contains("Examples:"))
        for shell in ["bash", "zsh", "fish"] {
            let completion = try CLI.run(["--generate-completion-script", shell])
            #expect(completion.status == 0 && completion.stdout.contains("plist"), "\(shell)")
        }
    }
}
