import PlistTools
import PropertyList

/// One run of `devkit plist rename`: its arguments and what it does with them. Built by
/// ArgumentParser's `Plist.PlistRename` or read directly (`DirectlyParsed`), like `set`.
struct PlistRenameInvocation: DirectlyParsed {
    static let commandPath = ["plist", "rename"]

    var file: String
    var keyPath: String
    var newKey: String
    var backup = false
    var force = false

    static func read(_ arguments: inout DirectArguments) -> PlistRenameInvocation? {
        guard let (backup, force) = arguments.writeFlags() else { return nil }
        guard arguments.positionals.count == 3 else { return nil }
        return PlistRenameInvocation(file: arguments.positionals[0], keyPath: arguments.positionals[1], newKey: arguments.positionals[2],
                                     backup: backup, force: force)
    }

    func validate() throws {}

    func run() throws {
        try PlistLoader.edit(file, backup: backup, force: force) { bytes throws(PlistError) in
            try PlistEditor.apply([.renameKey(KeyPath.parse(keyPath), to: newKey)], to: bytes)
        }
    }
}
