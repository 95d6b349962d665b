import PropertyList
import System

/// `devkit plist edit`: a property list shown in the user's editor through a temporary file,
/// the edited text checked, and the file written back (see `PlistEditSession` for what is
/// shown and written). The file is not overwritten if it changed on disk meanwhile.
public struct PlistEditorSession {
    /// Why the file was not written.
    public enum Failure: Error {
        /// The file (or the temporary file) could not be read or written, or does not parse.
        case file(PlistFileError)
        /// No temporary directory could be made; the error names its parent.
        case temporaryDirectory(FileIOError)
        /// The file is unchanged and the edits stay in `temporaryFile`; `reason` is what went
        /// wrong, for a person (empty when it was already reported).
        case editsKept(reason: String, temporaryFile: String)
    }

    /// The file being edited.
    public let file: String
    private let edit: PlistEditSession

    /// Reads `file`; `editAs` nil shows it in its own text format (XML for binary files).
    public init(file: String, editAs: PlistFormat?) throws(Failure) {
        self.file = file
        let original: [UInt8]
        do { original = try FileIO.read(file, kind: .propertyList) } catch { throw .file(.io(error)) }
        do { edit = try PlistEditSession(original: original, editAs: editAs) } catch {
            throw .file(.plist(error.inFile(file)))
        }
    }

    /// The editor command: $VISUAL, then $EDITOR, then vi.
    public static var editorCommand: String {
        Environment.nonEmptyValue("VISUAL") ?? Environment.nonEmptyValue("EDITOR") ?? "vi"
    }

    /// Runs the editor until the edited text is a valid property list, then writes the file
    /// (keeping its previous contents as FILE~ when `backup` is set; `force` as for `PlistFile.replace`). `invalidEdit` is given
    /// each parse error of the edited text (naming the temporary file) and returns whether to
    /// open the editor again.
    public func run(backup: Bool, force: Bool = false, invalidEdit: (PlistError) -> Bool) throws(Failure) {
        let directory: TemporaryDirectory
        do { directory = try TemporaryDirectory(prefix: "devkit-edit-") } catch { throw .temporaryDirectory(error) }
        let tempFile = "\(directory.path)/\(Self.stem(of: file)).\(edit.fileExtension)"
        do { try FileIO.writeAtomically(edit.initialText, to: tempFile) } catch { throw .file(.io(error)) }
        func kept(_ reason: String) -> Failure { .editsKept(reason: reason, temporaryFile: tempFile) }

        while true {
            let (status, problem) = Self.runEditor(on: tempFile)
            guard status == 0 else {
                throw kept((problem.map { $0 + "\n" } ?? "") + "devkit: editor exited with status \(status); \(file) not changed")
            }
            let edited: [UInt8]
            do { edited = try FileIO.read(tempFile, kind: .propertyList) } catch { throw .file(.io(error)) }
            let outcome: PlistEditSession.Outcome
            do { outcome = try edit.finish(edited: edited) } catch {
                if invalidEdit(error.inFile(tempFile)) { continue }
                throw kept("devkit: \(file) not changed")
            }
            if case .write(let bytes) = outcome { try write(bytes, backup: backup, force: force, tempFile: tempFile) }
            directory.remove(files: [tempFile])
            return
        }
    }

    /// Replaces the file with `bytes` unless it changed since it was read (checked under the
    /// file's lock, see `PlistFile.replace`).
    private func write(_ bytes: [UInt8], backup: Bool, force: Bool, tempFile: String) throws(Failure) {
        do { try PlistFile.replace(file, original: edit.original, with: bytes, backup: backup, force: force) } catch {
            throw .editsKept(reason: error.diagnostic.description, temporaryFile: tempFile)
        }
    }

    /// The temporary file's name: the file's name without its extension ("plist" if empty).
    static func stem(of path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? "plist"
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return name.isEmpty ? "plist" : name
    }

    /// Runs `/bin/sh -c "$EDITOR \"$1\"" sh FILE` with the standard streams inherited; returns
    /// its exit status (128+signal when killed, 127 when it could not run, with the reason).
    static func runEditor(on path: String) -> (status: Int32, problem: String?) {
        let arguments = ["/bin/sh", "-c", "\(editorCommand) \"$1\"", "sh", path]
        let child: ChildProcess
        do { child = try ChildProcess.spawn(arguments) } catch {
            return (127, "devkit: error: cannot run /bin/sh: \(error.reason)")
        }
        return (child.waitForExit()?.shellStatus ?? 127, nil)
    }
}
