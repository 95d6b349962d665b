import Foundation
import PlistTools
import PropertyList
import Testing

/// The file-level front ends: `PlistFile`, `PlistBuddySession`, `PlistEditorSession` and
/// `PlistFormatter.formatFile`, on files in a fresh temporary directory.
@Suite struct PlistFileSessionTests {
    /// Apple's layout with a comment, which every in-place edit must keep.
    static let xml = [
        #"<?xml version="1.0" encoding="UTF-8"?>"#,
        #"<plist version="1.0">"#, "<dict>", "\t<!-- keep me -->",
        "\t<key>Version</key>", "\t<string>1.0</string>", "</dict>", "</plist>", "",
    ].joined(separator: "\n")

    let scratch = ScratchFiles()

    /// A new directory holding `name` with `contents`; returns the file's path.
    func file(_ name: String = "Info.plist", _ contents: String = PlistFileSessionTests.xml) throws -> String {
        try scratch.file(name, contents)
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func editChangesOnlyTheEditedLineAndKeepsABackup() throws {
        let path = try file()
        try PlistFile.edit(path, backup: true) { bytes throws(PlistError) in
            try PlistEditor.set(bytes, at: KeyPath.parse("Version"), text: "2.0", type: nil)
        }
        #expect(try Self.text(path) == Self.xml.replacingOccurrences(of: "1.0</string>", with: "2.0</string>"))
        #expect(try Self.text(path + "~") == Self.xml)
    }

    @Test func loadNamesTheFileInErrors() throws {
        let path = try file("Bad.plist", "<plist><dict><key>a</key></dict></plist>")
        #expect {
            _ = try PlistFile.load(path, format: nil, warning: { _ in })
        } throws: { error in
            guard case .plist(let plistError)? = error as? PlistFileError else { return false }
            return plistError.file == path && plistError.position != nil
        }
    }

    @Test func buddyRunsAllOrNothing() throws {
        let path = try file()
        var failing = try PlistBuddySession(file: path, commands: ["Set :Version 3.0", "Delete :Missing"])
        #expect {
            _ = try failing.runCommands()
        } throws: { error in
            guard case .scriptFailed? = error as? PlistBuddySession.Failure else { return false }
            return true
        }
        #expect(try Self.text(path) == Self.xml)

        var session = try PlistBuddySession(file: path, commands: ["Set :Version 3.0", "Print :Version"])
        #expect(try session.runCommands() == Array("3.0\n".utf8))
        try session.save(backup: false)
        #expect(try Self.text(path).contains("<!-- keep me -->\n\t<key>Version</key>\n\t<string>3.0</string>"))
    }

    @Test func buddyCreatesAMissingFileWhenTheFirstCommandAdds() throws {
        let path = try file() + ".new"
        var session = try PlistBuddySession(file: path, commands: ["Add :Name string devkit"])
        #expect(!session.fileExists)
        _ = try session.runCommands()
        try session.save(backup: false)
        #expect(try PlistFile.load(path, format: nil, warning: { _ in }).value == .dictionary(["Name": .string("devkit")]))
    }

    @Test func formatFileChecksWithoutWriting() throws {
        let path = try file("Settings.plist", #"{"b": 1, "a": [true]}"#)
        let formatter = PlistFormatter(sortsKeys: true)
        #expect(try formatter.formatFile(path, as: nil, check: true, backup: false, warning: { _ in }) == .wouldChange)
        #expect(try Self.text(path) == #"{"b": 1, "a": [true]}"#)
        #expect(try formatter.formatFile(path, as: nil, check: false, backup: false, warning: { _ in }) == .reformatted)
        #expect(try formatter.formatFile(path, as: nil, check: false, backup: false, warning: { _ in }) == .unchanged)
    }

    @Test func editorSessionWritesWhatTheEditorSaved() throws {
        let path = try file()
        let editor = try file("editor.sh", "#!/bin/sh\nsed -i 's|<string>1.0|<string>4.0|' \"$1\"\n")
        setenv("VISUAL", "/bin/sh \(editor)", 1)
        defer { unsetenv("VISUAL") }
        let session = try PlistEditorSession(file: path, editAs: nil)
        try session.run(backup: false) { _ in false }
        #expect(try Self.text(path) == Self.xml.replacingOccurrences(of: "1.0</string>", with: "4.0</string>"))
    }
}
