import Foundation
import PropertyList
import Testing

/// `devkit plist buddy` end to end on temp copies of the samples.
@Suite struct PlistBuddyCommandTests {
    func copy(_ name: String) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let url = dir.appendingPathComponent(name)
        try FileManager.default.copyItem(at: CLI.samples.appendingPathComponent(name), to: url)
        return url
    }

    @Test func setThenPrint() throws {
        let file = try copy("Info.plist")
        let result = try CLI.run(["plist", "buddy", file.path, "-c", "Set :CFBundleVersion 42", "-c", "Print :CFBundleVersion"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "42\n")
        let again = try CLI.run(["plist", "get", file.path, ":CFBundleVersion", "--raw"])
        #expect(again.stdout == "42\n")
    }

    @Test func addArrayAndEntries() throws {
        let file = try copy("Info.plist")
        let result = try CLI.run(["plist", "buddy", file.path,
                                  "-c", "Add :Schemes array",
                                  "-c", "Add :Schemes:0 string mailto",
                                  "-c", "Add :Schemes:1 string \"tel and more\"",
                                  "-c", "Print :Schemes"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Array {\n    mailto\n    tel and more\n}\n")
        let value = try PropertyListCoding.read(Array(try Data(contentsOf: file))).value
        #expect(try value.value(at: KeyPath.parse(":Schemes:1")) == .string("tel and more"))
    }

    @Test func failingScriptLeavesFileUntouched() throws {
        let file = try copy("Info.plist")
        let before = try Data(contentsOf: file)
        let result = try CLI.run(["plist", "buddy", file.path, "-c", "Set :CFBundleVersion 1", "-c", "Delete :NoSuchKey"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Delete: Entry, \":NoSuchKey\", Does Not Exist"))
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func binaryStaysBinary() throws {
        let file = try copy("Settings.bplist")
        let result = try CLI.run(["plist", "buddy", file.path, "-c", "Add :DevKitAdded integer 3"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try PropertyListCoding.read(Array(try Data(contentsOf: file)))
        #expect(document.format == .binary)
        #expect(try document.value.value(at: KeyPath.parse(":DevKitAdded")) == .int(3))
    }

    @Test func xmlFilesKeepCommentsAndLayout() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n  <!-- build number -->\n  <key>CFBundleVersion</key>\n  <string>1</string>\n</dict>\n</plist>\n"
        let url = try CLI.temporaryDirectory().appendingPathComponent("Info.plist")
        try Data(xml.utf8).write(to: url)
        let result = try CLI.run(["plist", "buddy", url.path, "-c", "Set :CFBundleVersion 42", "-c", "Add :Extra bool true"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: url, encoding: .utf8) == xml
            .replacingOccurrences(of: "<string>1</string>\n", with: "<string>42</string>\n  <key>Extra</key>\n  <true/>\n"))
    }
}
