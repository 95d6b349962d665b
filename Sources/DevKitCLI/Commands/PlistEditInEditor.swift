import ArgumentParser
import PlistTools
import PropertyList
import System

extension Plist {
    struct PlistEditInEditor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Edit a property list in $VISUAL or $EDITOR (default vi).",
            discussion: """
                Text files (XML, OpenStep/.strings, JSON) are edited as their own text, comments \
                kept, and written back as edited. Binary files are shown as XML (or --as) and \
                written back as binary. The edited text is checked before the \
                file is replaced; on an error the edits stay in the temporary file, whose path \
                is printed. A file changed on disk meanwhile is not overwritten.

                Examples:
                  devkit plist edit Info.plist
                  devkit plist edit settings.bplist --as json
                  EDITOR='code --wait' devkit plist edit App.entitlements
                """
        )

        @Argument(help: "The property list to edit.")
        var file: String

        /// The text formats an editor can show (binary is not one).
        enum TextFormat: String, ExpressibleByArgument, CaseIterable {
            case xml, openstep, json
            var plistFormat: PlistFormat {
                switch self {
                case .xml: .xml
                case .openstep: .openStep
                case .json: .json
                }
            }
        }

        @Option(name: .customLong("as"), help: "Text format shown in the editor.")
        var editAs: TextFormat?

        @OptionGroup var writeOptions: WriteOptions

        func validate() throws {
            if file == "-" { throw ValidationError("plist edit needs a file, not standard input.") }
        }

        func run() throws {
            do {
                let session = try PlistEditorSession(file: file, editAs: editAs?.plistFormat)
                try session.run(backup: writeOptions.backup, force: writeOptions.force) { error in
                    FileHandleOutput.standardError(error.diagnostic.inFile("<input>").description + "\n")
                    return Terminal.isTerminal(0) && Terminal.isTerminal(2) && Self.askReedit()
                }
            } catch {
                switch error {
                case .file(let error): throw CommandFailure.diagnostic(error)
                case .temporaryDirectory(let error):
                    throw CommandFailure.input("devkit: error: cannot create a temporary directory in \(error.path): \(error.reason)")
                case .editsKept(let reason, let temporaryFile):
                    throw CommandFailure.input((reason.isEmpty ? "" : reason + "\n") + "devkit: your edits are in \(temporaryFile)")
                }
            }
        }

        /// Asks `Re-edit? [Y/n] ` on stderr and reads a line from stdin; true for yes.
        static func askReedit() -> Bool {
            FileHandleOutput.standardError("Re-edit? [Y/n] ")
            guard let line = readLine() else { return false }
            let answer = line.trimmingCharacters(in: " \t").lowercased()
            return answer.isEmpty || answer == "y" || answer == "yes"
        }
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
