import PropertyList
import System

extension PlistFormatter {
    /// What formatting one file did.
    public enum FileOutcome: Equatable, Sendable {
        /// Already in canonical form; nothing written (standard input: copied to standard output).
        case unchanged
        /// Not in canonical form; with `check`, nothing was written.
        case wouldChange
        /// Replaced with its canonical form (standard input: written to standard output).
        case reformatted
    }

    /// `devkit plist fmt` on one file: formats it in place, or with `check` only tells whether
    /// it would change. `-` reads standard input and writes the result to standard output
    /// (nothing with `check`). Reader warnings go to `warning` as `name: warning: …` lines.
    public func formatFile(_ file: String, as format: PlistFormat?, check: Bool, backup: Bool, force: Bool = false,
                           warning: (String) -> Void) throws(PlistFileError) -> FileOutcome {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(file, kind: .propertyList) } catch { throw .io(error) }
        let name = PlistFile.displayName(file)
        let output: Output
        do { output = try self.format(bytes, as: format) } catch { throw .plist(error.inFile(name)) }
        for message in output.warnings { warning("\(name): warning: \(message)\n") }
        if check { return output.isChanged ? .wouldChange : .unchanged }
        if file == FileIO.standardStream || output.isChanged {
            try PlistFile.replace(file, original: bytes, with: output.bytes, backup: backup, force: force)
        }
        return output.isChanged ? .reformatted : .unchanged
    }
}
