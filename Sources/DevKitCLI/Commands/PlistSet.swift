import ArgumentParser
import FileIO
import PropertyList

extension PlistEditType: ExpressibleByArgument {}

extension Plist {
    struct PlistSet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a value at a key path, changing only that value's bytes.",
            discussion: """
                XML files are edited in place: only the edited element changes, so comments and \
                layout survive. A new key is added at the end of an existing dictionary. Binary \
                files are rewritten from the edited value. OpenStep and JSON are not supported yet.

                The type is the existing value's; changing it needs --type. A new key is a \
                string unless --type says otherwise. Booleans: true/false/yes/no/1/0; dates: \
                2024-01-31T12:00:00Z; data: base64.

                Examples:
                  devkit plist set Info.plist CFBundleShortVersionString 2.1
                  devkit plist set Info.plist LSRequiresIPhoneOS true --type bool
                  devkit plist set App.entitlements 'com\\.apple\\.security\\.app-sandbox' true
                """
        )

        @Argument(help: "The property list to edit in place.")
        var file: String

        @Argument(help: "Key path to the value (dotted, or PlistBuddy's :A:B).")
        var keyPath: String

        @Argument(help: "The new value, as text.")
        var value: String

        @Option(name: .long, help: "The value's type (string|integer|real|bool|date|data).")
        var type: PlistEditType?

        func run() throws {
            try PlistFileEdit.apply(to: file) { bytes throws(PlistError) in
                try PlistEditor.set(bytes, at: KeyPath.parse(keyPath), text: value, type: type)
            }
        }
    }
}

/// Reads a file, edits its bytes and writes them back atomically; on any error the file is untouched.
enum PlistFileEdit {
    static func apply(to file: String, _ edit: ([UInt8]) throws(PlistError) -> [UInt8]) throws(CommandFailure) {
        guard file != "-" else { throw .input("<stdin>: error: plist set/delete edit a file in place; standard input is not supported") }
        let bytes: [UInt8]
        do { bytes = try FileIO.read(file) } catch { throw .io(error) }
        let edited: [UInt8]
        do { edited = try edit(bytes) } catch { throw .plist(error.inFile(file)) }
        guard edited != bytes else { return }
        do { try FileIO.writeAtomically(edited, to: file) } catch { throw .io(error) }
    }
}
