import PlistTools
import PropertyList

/// One run of `devkit plist delete`: its arguments and what it does with them. Built by
/// ArgumentParser's `Plist.PlistDelete` or read directly (`DirectlyParsed`), like `set`.
struct PlistDeleteInvocation: DirectlyParsed {
    static let commandPath = ["plist", "delete"]

    var file: String
    var keyPath: String
    var backup = false
    var force = false

    static func read(_ arguments: inout DirectArguments) -> PlistDeleteInvocation? {
        guard let (backup, force) = arguments.writeFlags() else { return nil }
        guard arguments.positionals.count == 2 else { return nil }
        return PlistDeleteInvocation(file: arguments.positionals[0], keyPath: arguments.positionals[1], backup: backup, force: force)
    }

    func validate() throws {}

    func run() throws {
        try PlistLoader.edit(file, backup: backup, force: force) { bytes throws(PlistError) in
            try PlistEditor.delete(bytes, at: KeyPath.parse(keyPath))
        }
    }
}
