import Foundation
import PlistTools
import PropertyList
import Testing

/// `devkit PlistBuddy`: Apple's semantics (a failing command does not stop the others; -c
/// saves at the end, the interactive mode only on Save), on files in a fresh directory.
@Suite struct PlistBuddyShellTests {
    let scratch = ScratchFiles()

    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the shell with `arguments`, feeding `input` as the interactive lines.
    static func run(_ arguments: [String], input: [String] = []) -> Run {
        var output: [UInt8] = [], errors = "", lines = input[...]
        let status = PlistBuddyShell.run(arguments, write: { output += $0 }, writeError: { errors += $0 },
                                         readLine: { lines.popFirst() })
        return Run(status: status, output: String(decoding: output, as: UTF8.self), errors: errors)
    }

    @Test func aFailingCommandIsReportedAndTheRestStillRunAndSave() throws {
        let path = try scratch.file("Info.plist", PlistFileSessionTests.xml)
        let run = Self.run(["-c", "Print :Version", "-c", "Print :Nope", "-c", "Set :Version 2.0", "-c", "Add :Build integer 7", path])
        #expect(run.status == 1)
        #expect(run.output == "1.0\n")
        #expect(run.errors == "Print: Entry, \":Nope\", Does Not Exist\n")
        let text = try PlistFileSessionTests.text(path)
        #expect(text.contains("\t<!-- keep me -->"))  // saved in place, the comment kept
        #expect(text.contains("<string>2.0</string>"))
        #expect(text.contains("<key>Build</key>\n\t<integer>7</integer>"))
    }

    @Test func interactiveChangesAreSavedOnlyOnSaveAndRevertGoesBack() throws {
        let path = try scratch.file("Info.plist", PlistFileSessionTests.xml)
        let dropped = Self.run([path], input: ["Set :Version 3.0", "Print :Version", "Exit"])
        #expect(dropped.status == 0)
        #expect(dropped.output == "Command: Command: 3.0\nCommand: ")
        #expect(try PlistFileSessionTests.text(path) == PlistFileSessionTests.xml)
        let saved = Self.run([path], input: ["Set :Version 3.0", "Revert", "Print :Version", "Set :Version 4.0", "Save", "Quit"])
        #expect(saved.output.contains("Reverting to last saved state...\nCommand: 1.0\n"))
        #expect(saved.output.contains("Saving...\n"))
        #expect(try PlistFileSessionTests.text(path).contains("<string>4.0</string>"))
        // The end of the input ends the session like Exit.
        #expect(Self.run([path], input: ["Print :Version"]).output == "Command: 4.0\nCommand: ")
    }

    @Test func importMinusXAndAMissingFile() throws {
        let path = try scratch.file("Info.plist", PlistFileSessionTests.xml)
        let data = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("blob.bin").path
        try Data([0, 1, 2, 0xff]).write(to: URL(fileURLWithPath: data))
        let run = Self.run(["-x", "-c", "Import :Blob \(data)", "-c", "Print :Blob", path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("<data>\nAAEC/w==\n</data>") || run.output.contains("<data>AAEC/w==</data>"), "\(run.output)")
        let created = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("New.plist").path
        let new = Self.run(["-c", "Add :Name string devkit", created])
        #expect(new.errors == "File Doesn't Exist, Will Create: \(created)\n")
        #expect(try PropertyListCoding.read(Array(Data(contentsOf: URL(fileURLWithPath: created)))).value == .dictionary(["Name": .string("devkit")]))
    }

    @Test(arguments: [
        (["-q", "f"], "Invalid Option: -q\n"),
        (["-c"], "-c needs a command\n"),
        ([String](), ""),
        (["a", "b"], "Too many arguments: b\n"),
    ])
    func usageErrors(_ arguments: [String], _ first: String) {
        let run = Self.run(arguments)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix(first + "Usage: PlistBuddy"))
    }
}
