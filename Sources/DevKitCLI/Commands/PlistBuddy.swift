import ArgumentParser
import System
import PropertyList

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
            let script: PlistBuddyScript
            do { script = try PlistBuddyScript(parsing: commands) } catch {
                throw CommandFailure.input("\(file): error: \(error.message)")
            }
            var original: PlistValue
            var format: PlistFormat
            var exists = true
            var originalBytes: [UInt8] = []
            do {
                let bytes = try FileIO.read(file)
                originalBytes = bytes
                do {
                    let document = try PropertyListCoding.read(bytes)
                    original = document.value
                    format = document.format
                } catch {
                    throw CommandFailure.plist(error.inFile(file))
                }
            } catch let error as FileIOError {
                guard script.commands.first?.createsFile == true,
                      error.reason.contains("No such file") else { throw CommandFailure.io(error) }
                original = .dictionary([:])
                format = .xml
                exists = false
                FileHandleOutput.standardError("File Doesn't Exist, Will Create: \(file)\n")
            }
            var value = original
            var output: [UInt8] = []
            do {
                try script.apply(to: &value, output: &output) { path throws(PlistBuddyError) in
                    do {
                        return try PropertyListCoding.read(try FileIO.read(path)).value
                    } catch {
                        throw PlistBuddyError("Merge: Error Reading File: \(path)")
                    }
                }
            } catch {
                try? FileHandleOutput.standardOutput(output)
                throw CommandFailure.input("\(error.message)\n\(file): error: script failed; file not written")
            }
            try FileHandleOutput.standardOutput(output)
            guard value != original || !exists else { return }
            // XML and OpenStep files change only where the script changed something.
            let bytes = try PlistEditor.losslessRewrite(originalBytes, to: value)
                ?? PlistLoader.serialize(value, as: format, source: file)
            if exists {
                try PlistFileEdit.replace(file, original: originalBytes, with: bytes, options: writeOptions)
            } else {
                do { try FileIO.writeAtomically(bytes, to: file) } catch { throw CommandFailure.io(error) }
            }
        }
    }
}
