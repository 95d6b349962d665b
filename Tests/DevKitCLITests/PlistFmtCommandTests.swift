import Foundation
import Testing
import PropertyList

/// `devkit plist fmt` end to end: exit codes, listings, files on disk, standard streams.
@Suite struct PlistFmtCommandTests {
    static let messyXML = """
        <?xml version="1.0"?>
        <plist version="1.0"><dict>
          <key>b</key>   <integer>1</integer>
            <key>a</key><array><string>x</string></array>
        </dict></plist>
        """

    static let canonicalXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>b</key>
        \t<integer>1</integer>
        \t<key>a</key>
        \t<array>
        \t\t<string>x</string>
        \t</array>
        </dict>
        </plist>

        """

    /// A directory with messy.plist, canonical.plist, canonical.json and Broken.plist.
    static func workspace() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try Self.messyXML.write(to: dir.appendingPathComponent("messy.plist"), atomically: true, encoding: .utf8)
        try Self.canonicalXML.write(to: dir.appendingPathComponent("canonical.plist"), atomically: true, encoding: .utf8)
        let json = try PropertyListCoding.write(.dictionary(["k": .array([.int(1), .bool(true)])]), as: .json)
        try Data(json).write(to: dir.appendingPathComponent("canonical.json"))
        try FileManager.default.copyItem(at: CLI.samples.appendingPathComponent("Broken.plist"), to: dir.appendingPathComponent("Broken.plist"))
        return dir
    }

    static func contents(_ dir: URL, _ name: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func checkExitsZeroWhenCanonical() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["plist", "fmt", "--check", "canonical.plist", "canonical.json"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.isEmpty)
    }

    @Test func checkListsFilesThatWouldChangeAndWritesNothing() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["plist", "fmt", "--check", "canonical.plist", "messy.plist", "canonical.json"], cwd: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout == "messy.plist\n")
        #expect(try Self.contents(dir, "messy.plist") == Self.messyXML)
        // --sort-keys makes the canonical XML (b before a) change too; the JSON is sorted already.
        let sorted = try CLI.run(["plist", "fmt", "--check", "--sort-keys", "canonical.plist", "messy.plist", "canonical.json"], cwd: dir)
        #expect(sorted.status == 1)
        #expect(sorted.stdout == "canonical.plist\nmessy.plist\n")
    }

    @Test func rewritesInPlaceKeepingPermissions() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let messy = dir.appendingPathComponent("messy.plist")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: messy.path)
        let r = try CLI.run(["plist", "fmt", "messy.plist", "canonical.plist"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "reformatted messy.plist\n")
        #expect(try Self.contents(dir, "messy.plist") == Self.canonicalXML)
        let permissions = try FileManager.default.attributesOfItem(atPath: messy.path)[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        // Now it is canonical: a second run changes nothing.
        let again = try CLI.run(["plist", "fmt", "--check", "messy.plist"], cwd: dir)
        #expect(again.status == 0)
    }

    @Test func canonicalFilesKeepTheirModificationDate() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        for name in ["canonical.plist", "canonical.json"] {
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: dir.appendingPathComponent(name).path)
        }
        let r = try CLI.run(["plist", "fmt", "canonical.plist", "canonical.json", "messy.plist"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "reformatted messy.plist\n")
        for name in ["canonical.plist", "canonical.json"] {
            let date = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.modificationDate] as? Date
            #expect(date == past, "\(name)")
        }
    }

    @Test func brokenFileExitsTwoAfterFormattingTheOthers() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["plist", "fmt", "Broken.plist", "messy.plist", "missing.plist"], cwd: dir)
        #expect(r.status == 2)
        #expect(r.stderr == """
            Broken.plist:9:6: error: duplicate key "CFBundleVersion" (first defined at 7:6)
            missing.plist: error: No such file or directory

            """)
        #expect(r.stdout == "reformatted messy.plist\n")
        #expect(try Self.contents(dir, "messy.plist") == Self.canonicalXML)
        // An input error outranks the findings of --check.
        let check = try CLI.run(["plist", "fmt", "--check", "Broken.plist", "canonical.json"], cwd: dir)
        #expect(check.status == 2)
    }

    @Test func standardInputToStandardOutput() throws {
        let r = try CLI.run(["plist", "fmt", "-"], stdin: Data(Self.messyXML.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.canonicalXML)
        let indented = try CLI.run(["plist", "fmt", "--indent", "2", "--sort-keys", "-"], stdin: Data(Self.messyXML.utf8))
        #expect(indented.stdout.contains("<dict>\n  <key>a</key>\n  <array>\n    <string>x</string>\n  </array>\n  <key>b</key>\n"))
        let check = try CLI.run(["plist", "fmt", "--check", "-"], stdin: Data(Self.messyXML.utf8))
        #expect(check.status == 1)
        #expect(check.stdout == "<stdin>\n")
        let clean = try CLI.run(["plist", "fmt", "--check", "-"], stdin: Data(Self.canonicalXML.utf8))
        #expect(clean.status == 0)
        #expect(clean.stdout.isEmpty)
    }

    @Test func binaryStaysBinary() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["plist", "fmt", "-"], stdin: Data(Self.messyXML.utf8))
        let value = try PropertyListCoding.read([UInt8](r.stdoutBytes)).value
        let binary = try PropertyListCoding.write(value, as: .binary)
        try Data(binary).write(to: dir.appendingPathComponent("canonical.bplist"))
        #expect(try CLI.run(["plist", "fmt", "--check", "canonical.bplist"], cwd: dir).status == 0)
        let sorted = try CLI.run(["plist", "fmt", "--sort-keys", "canonical.bplist"], cwd: dir)
        #expect(sorted.stdout == "reformatted canonical.bplist\n")
        let written = try PropertyListCoding.read([UInt8](try Data(contentsOf: dir.appendingPathComponent("canonical.bplist"))))
        #expect(written.format == .binary)
        #expect(written.value == value.sortingKeys())
    }

    @Test(arguments: [
        ["plist", "fmt"],
        ["plist", "fmt", "--indent", "0", "Samples/Info.plist"],
        ["plist", "fmt", "--indent", "spaces", "Samples/Info.plist"],
        ["plist", "fmt", "-", "Samples/Info.plist"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2, "\(arguments)")
        #expect(!r.stderr.isEmpty)
    }

    @Test func helpHasExamples() throws {
        let r = try CLI.run(["plist", "fmt", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Examples:"))
        #expect(r.stdout.contains("--indent <tabs|N>"))
    }
}
