import ArgumentParser
import PlistTools

extension Plist {
    struct PlistBuddy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "buddy",
            abstract: "Run PlistBuddy commands (Print, Set, Add, Delete, Copy, Merge, Clear) on a file.",
            discussion: """
                Each -c is one command in PlistBuddy's language, applied in order; entries are \
                :Key:Sub:0 paths. Values with spaces may be quoted with double or single quotes. \
                Print writes to standard output in PlistBuddy's layout (dates in UTC).

                Unlike PlistBuddy, which reports a failing command and carries on, devkit stops \
                at the first failure, exits 2 and leaves the file untouched: a build script never \
                sees a half-applied edit. When every command succeeds and the value changed, XML \
                and OpenStep files are edited in place (only the changed entries' lines change, \
                comments stay; PlistBuddy rewrites the whole file) and binary and JSON files are \
                rewritten in their format. A missing FILE is created as XML when the first \
                command is Add or Clear.

                Examples:
                  devkit plist buddy Info.plist -c "Set :CFBundleVersion 42"
                  devkit plist buddy Info.plist -c "Print :CFBundleIdentifier"
                  devkit plist buddy Info.plist -c "Add :LSApplicationQueriesSchemes array" \\
                      -c "Add :LSApplicationQueriesSchemes:0 string mailto"
                  devkit plist buddy Info.plist -c "Set :NSHumanReadableCopyright 'Copyright 2026 Example'"
                """
        )

        @Argument(help: "The property list to run the commands on.")
        var file: String

        @Option(name: .customShort("c"), help: "A PlistBuddy command; repeat for several.")
        var commands: [String] = []

        @OptionGroup var writeOptions: WriteOptions

        func validate() throws {
            if commands.isEmpty { throw ValidationError("Give at least one command with -c (interactive mode is not supported).") }
            if file == "-" { throw ValidationError("plist buddy edits a file; standard input is not supported.") }
        }

        func run() throws {
            do {
                var session = try PlistBuddySession(file: file, commands: commands)
                if !session.fileExists { FileHandleOutput.standardError("File Doesn't Exist, Will Create: \(file)\n") }
                try FileHandleOutput.standardOutput(try session.runCommands())
                try session.save(backup: writeOptions.backup, force: writeOptions.force)
            } catch let failure as PlistBuddySession.Failure {
                throw report(failure)
            }
        }

        /// The failure to exit with; what the commands printed before one failed goes out first.
        private func report(_ failure: PlistBuddySession.Failure) -> CommandFailure {
            switch failure {
            case .file(let error): return .diagnostic(error)
            case .invalidScript(let error): return .input("\(file): error: \(error.message)")
            case .scriptFailed(let error, let output):
                try? FileHandleOutput.standardOutput(output)
                return .input("\(error.message)\n\(file): error: script failed; file not written")
            }
        }
    }
}
