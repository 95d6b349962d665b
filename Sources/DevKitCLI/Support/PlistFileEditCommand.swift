import ArgumentParser
import PlistTools
import PropertyList

/// A command that edits one property list in place through the lossless editor (`plist
/// insert`, `rename`): each says only how the bytes change; reading, error naming, `--backup`
/// and the atomic write are `PlistLoader.edit`, which `set` and `delete` (read directly, as
/// `PlistSetInvocation` and `PlistDeleteInvocation`) call too.
protocol PlistFileEditCommand: ParsableCommand {
    /// The file to edit (`-`: standard input to standard output).
    var file: String { get }
    var writeOptions: WriteOptions { get }
    /// The file's new bytes.
    func edit(_ bytes: [UInt8]) throws(PlistError) -> [UInt8]
}

extension PlistFileEditCommand {
    func run() throws {
        try PlistLoader.edit(file, backup: writeOptions.backup, force: writeOptions.force) { bytes throws(PlistError) in try edit(bytes) }
    }
}
