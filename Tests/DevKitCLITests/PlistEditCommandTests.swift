import Foundation
import Testing
import PropertyList

/// `devkit plist set` / `delete` end to end: in-place edits, exit codes, untouched files on errors.
@Suite struct PlistEditCommandTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<!-- keep me -->
        \t<key>CFBundleShortVersionString</key>
        \t<string>1.0</string>
        \t<key>Build</key>
        \t<integer>7</integer>
        </dict>
        </plist>

        """

    static func file(_ contents: Data, name: String = "Info.plist") throws -> URL {
        let url = try CLI.temporaryDirectory().appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    @Test func setExistingStringChangesOneLine() throws {
        let url = try Self.file(Data(Self.xml.utf8))
        let result = try CLI.run(["plist", "set", url.path, "CFBundleShortVersionString", "2.1"])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try String(contentsOf: url, encoding: .utf8)
        #expect(after == Self.xml.replacingOccurrences(of: "<string>1.0</string>", with: "<string>2.1</string>"))
    }

    @Test func addThenDeleteRestoresBytes() throws {
        let url = try Self.file(Data(Self.xml.utf8))
        #expect(try CLI.run(["plist", "set", url.path, "NewKey", "5", "--type", "integer"]).status == 0)
        let added = try String(contentsOf: url, encoding: .utf8)
        #expect(added.contains("\t<integer>7</integer>\n\t<key>NewKey</key>\n\t<integer>5</integer>\n</dict>"))
        #expect(added.contains("<!-- keep me -->"))
        #expect(try CLI.run(["plist", "delete", url.path, ":NewKey"]).status == 0)
        #expect(try Data(contentsOf: url) == Data(Self.xml.utf8))
    }

    @Test(arguments: [
        (["Missing.Key", "x"], "Missing.Key"),
        (["Build", "seven"], "Build"),
        (["Build", "12x", "--type", "integer"], "Build"),
    ])
    func errorsLeaveFileUnchanged(arguments: [String], named: String) throws {
        let url = try Self.file(Data(Self.xml.utf8))
        let result = try CLI.run(["plist", "set", url.path] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(url.path): error: "), "\(result.stderr)")
        #expect(result.stderr.contains("\"\(named)\""), "\(result.stderr)")
        #expect(try Data(contentsOf: url) == Data(Self.xml.utf8))
    }

    @Test func deleteMissingKeyFails() throws {
        let url = try Self.file(Data(Self.xml.utf8))
        let result = try CLI.run(["plist", "delete", url.path, "Nope"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot delete \"Nope\""), "\(result.stderr)")
        #expect(try Data(contentsOf: url) == Data(Self.xml.utf8))
    }

    @Test func stringsFilesAreEditedInPlace() throws {
        let strings = "/* greeting */\n\"hello\" = \"Hello\";\n"
        let url = try Self.file(Data(strings.utf8), name: "Localizable.strings")
        let result = try CLI.run(["plist", "set", url.path, "hello", "Hi"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: url, encoding: .utf8) == "/* greeting */\n\"hello\" = \"Hi\";\n")
    }

    @Test func binarySetAndDelete() throws {
        let original: PlistValue = .dictionary(["name": .string("a"), "list": .array([.int(1), .int(2)])])
        let url = try Self.file(Data(try PropertyListCoding.write(original, as: .binary)), name: "b.plist")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
        #expect(try CLI.run(["plist", "set", url.path, "name", "b"]).status == 0)
        #expect(try CLI.run(["plist", "delete", url.path, "list.0"]).status == 0)
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(PlistFormat.detect(bytes) == .binary)
        #expect(try PropertyListCoding.read(bytes).value == .dictionary(["name": .string("b"), "list": .array([.int(2)])]))
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }
}
