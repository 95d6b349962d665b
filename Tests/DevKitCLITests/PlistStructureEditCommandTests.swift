import Foundation
import Testing
import PropertyList

/// `devkit plist insert | rename | merge`, `set --create-parents`, `--backup`, `-` and the rule
/// that every failed edit leaves the file byte-for-byte as it was.
@Suite struct PlistStructureEditCommandTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>Schemes</key>
        \t<array>
        \t\t<string>a</string>
        \t</array>
        \t<!-- the version -->
        \t<key>Version</key>
        \t<string>1.0</string>
        </dict>
        </plist>

        """

    static func file(_ text: String = xml, name: String = "Info.plist") throws -> URL {
        let url = try CLI.temporaryDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func insertRenameAndCreateParentsEditInPlace() throws {
        let url = try Self.file()
        for arguments in [
            ["insert", url.path, "Schemes.end", "b"],
            ["insert", url.path, "Schemes.0", "first"],
            ["rename", url.path, "Version", "CFBundleShortVersionString"],
            ["set", url.path, "Sync.Server.Port", "8443", "--type", "integer", "--create-parents"],
        ] {
            let result = try CLI.run(["plist"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>Schemes</key>
            \t<array>
            \t\t<string>first</string>
            \t\t<string>a</string>
            \t\t<string>b</string>
            \t</array>
            \t<!-- the version -->
            \t<key>CFBundleShortVersionString</key>
            \t<string>1.0</string>
            \t<key>Sync</key>
            \t<dict>
            \t\t<key>Server</key>
            \t\t<dict>
            \t\t\t<key>Port</key>
            \t\t\t<integer>8443</integer>
            \t\t</dict>
            \t</dict>
            </dict>
            </plist>

            """)
    }

    @Test func mergeReportsKeptValuesAndOverwrites() throws {
        let url = try Self.file()
        let other = try Self.file(#"{"Version": "2.0", "Schemes": ["a", "c"], "New": true}"#, name: "other.json")
        let kept = try CLI.run(["plist", "merge", url.path, other.path])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stderr.contains("kept \"Version\""), "\(kept.stderr)")
        var value = try PropertyListCoding.read([UInt8](try Data(contentsOf: url))).value
        #expect(value == .dictionary(["Schemes": .array([.string("a"), .string("c")]), "Version": .string("1.0"), "New": .bool(true)]))
        #expect(try String(contentsOf: url, encoding: .utf8).contains("<!-- the version -->"))
        let overwrite = try CLI.run(["plist", "merge", url.path, other.path, "--overwrite"])
        #expect(overwrite.status == 0, "\(overwrite.stderr)")
        value = try PropertyListCoding.read([UInt8](try Data(contentsOf: url))).value
        #expect(try value.value(at: KeyPath(["Version"])) == .string("2.0"))
    }

    @Test func backupKeepsThePreviousBytesWithTheFilesMode() throws {
        let url = try Self.file()
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        let result = try CLI.run(["plist", "set", url.path, "Version", "2.0", "--backup"])
        #expect(result.status == 0, "\(result.stderr)")
        let backup = url.path + "~"
        #expect(try String(contentsOfFile: backup, encoding: .utf8) == Self.xml)
        #expect(try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int == 0o600)
    }

    @Test func standardInputIsEditedToStandardOutput() throws {
        let result = try CLI.run(["plist", "insert", "-", "Schemes.end", "z"], stdin: Data(Self.xml.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == Self.xml.replacingOccurrences(of: "\t\t<string>a</string>\n", with: "\t\t<string>a</string>\n\t\t<string>z</string>\n"))
    }

    /// Every way an edit can fail: exit 2, a message naming the key path or file, the file untouched.
    @Test(arguments: [
        (["set", "FILE", "Version.x", "1"], "\"Version.x\""),                       // key path into a string
        (["insert", "FILE", "Schemes.5", "x"], "\"Schemes.5\""),                    // index out of range
        (["insert", "FILE", "Schemes.x", "x"], "\"Schemes.x\""),                    // not an index
        (["delete", "FILE", "Schemes.1"], "\"Schemes.1\""),
        (["set", "FILE", "Nope.Deeper", "1"], "--create-parents"),
        (["set", "FILE", "Schemes", "x"], "--type json"),                           // container needs a type
        (["set", "FILE", "Version", "[1", "--type", "json"], "not a valid json"),   // value does not parse
        (["set", "FILE", "Version", "x", "--type", "date"], "not a valid date"),
        (["rename", "FILE", "Version", "Schemes"], "already exists"),
        (["rename", "FILE", "Schemes.0", "x"], "not a dictionary entry"),
        (["merge", "FILE", "FILE", "--at", "Version"], "cannot merge"),
        (["merge", "FILE", "/nonexistent/other.plist"], "/nonexistent/other.plist"),
    ])
    func failedEditsLeaveTheFileUnchanged(arguments: [String], expected: String) throws {
        let url = try Self.file()
        let result = try CLI.run(["plist"] + arguments.map { $0 == "FILE" ? url.path : $0 })
        #expect(result.status == 2, "\(arguments)")
        #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        #expect(try String(contentsOf: url, encoding: .utf8) == Self.xml)
        #expect(!FileManager.default.fileExists(atPath: url.path + "~"))
    }

    @Test func unreadableAndUnwritableFilesAreInputErrors() throws {
        let missing = try CLI.run(["plist", "set", "/nonexistent/Info.plist", "a", "b"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/Info.plist: error: No such file or directory"), "\(missing.stderr)")

        let notPlist = try Self.file("hello = ;;;", name: "bad.plist")
        let bad = try CLI.run(["plist", "set", notPlist.path, "a", "b"])
        #expect(bad.status == 2)
        #expect(try String(contentsOf: notPlist, encoding: .utf8) == "hello = ;;;")

        // A read-only file in a read-only directory: the temp file cannot be created. Root
        // ignores permission bits, so as root devkit runs as nobody through setpriv.
        let url = try Self.file()
        let directory = url.deletingLastPathComponent().path
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let readOnly = try CLI.run(["plist", "set", url.path, "Version", "2.0", "--force"], launcher: launcher)
        #expect(readOnly.status == 2)
        #expect(readOnly.stderr.contains("cannot create a temporary file beside it: Permission denied"), "\(readOnly.stderr)")
        #expect(try String(contentsOf: url, encoding: .utf8) == Self.xml)
    }
}
