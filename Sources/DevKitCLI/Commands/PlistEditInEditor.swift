import ArgumentParser
import System
import PropertyList

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            let original: [UInt8]
            do { original = try FileIO.read(file) } catch { throw CommandFailure.io(error) }
            let session: PlistEditSession
            do { session = try PlistEditSession(original: original, editAs: editAs?.plistFormat) } catch {
                throw CommandFailure.plist(error.inFile(file))
            }
            let tempDirectory = try Self.makeTemporaryDirectory()
            let stem = Self.stem(of: file)
            let tempFile = "\(tempDirectory)/\(stem).\(session.fileExtension)"
            do { try FileIO.writeAtomically(session.initialText, to: tempFile) } catch { throw CommandFailure.io(error) }
            func cleanUp() { unlink(tempFile); rmdir(tempDirectory) }
            func abort(_ reason: String) -> CommandFailure {
                .input((reason.isEmpty ? "" : reason + "\n") + "devkit: your edits are in \(tempFile)")
            }

            while true {
                let status = Self.runEditor(on: tempFile)
                guard status == 0 else { throw abort("devkit: editor exited with status \(status); \(file) not changed") }
                let edited: [UInt8]
                do { edited = try FileIO.read(tempFile) } catch { throw CommandFailure.io(error) }
                let outcome: PlistEditSession.Outcome
                do { outcome = try session.finish(edited: edited) } catch {
                    FileHandleOutput.standardError(CommandFailure.plist(error.inFile(tempFile)).message + "\n")
                    if isatty(0) != 0 && isatty(2) != 0 && Self.askReedit() { continue }
                    throw abort("devkit: \(file) not changed")
                }
                guard case .write(let bytes) = outcome else {
                    cleanUp()
                    return
                }
                let current: [UInt8]
                do { current = try FileIO.read(file) } catch { throw abort("\(file): error: \(error.reason)") }
                guard current == original else {
                    throw abort("\(file): error: changed on disk while it was being edited; not overwritten")
                }
                do {
                    if writeOptions.backup { try FileIO.writeBackup(original, of: file) }
                    try FileIO.writeAtomically(bytes, to: file)
                } catch { throw abort("\(error.path): error: \(error.reason)") }
                cleanUp()
                return
            }
        }

        static func stem(of path: String) -> String {
            var name = path.split(separator: "/").last.map(String.init) ?? "plist"
            if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
            return name.isEmpty ? "plist" : name
        }

        static func makeTemporaryDirectory() throws(CommandFailure) -> String {
            var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            if base.isEmpty { base = "/tmp" }
            while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
            var template = Array("\(base)/devkit-edit-XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
            guard made else { throw .input("devkit: error: cannot create a temporary directory in \(base): \(String(cString: strerror(errno)))") }
            return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// The editor command: $VISUAL, then $EDITOR, then vi.
        static var editorCommand: String {
            for name in ["VISUAL", "EDITOR"] {
                if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { return value }
            }
            return "vi"
        }

        /// Runs `/bin/sh -c "$EDITOR \"$1\"" sh FILE` with the standard streams inherited;
        /// returns its exit status (128+signal when killed).
        static func runEditor(on path: String) -> Int32 {
            let arguments = ["sh", "-c", "\(editorCommand) \"$1\"", "sh", path]
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { for p in argv { free(p) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ)
            guard spawned == 0 else {
                FileHandleOutput.standardError("devkit: error: cannot run /bin/sh: \(String(cString: strerror(spawned)))\n")
                return 127
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                if errno != EINTR { return 127 }
            }
            if status & 0x7f == 0 { return (status >> 8) & 0xff }
            return 128 + (status & 0x7f)
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
