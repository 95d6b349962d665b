import PlistTools
import PropertyList

/// One run of `devkit plist insert`: its arguments and what it does with them. Built by
/// ArgumentParser's `Plist.PlistInsert` or read directly (`DirectlyParsed`), like `set`.
struct PlistInsertInvocation: DirectlyParsed {
    static let commandPath = ["plist", "insert"]

    var file: String
    var keyPath: String
    var value: String
    var type: PlistEditType?
    var backup = false
    var force = false

    static func read(_ arguments: inout DirectArguments) -> PlistInsertInvocation? {
        var type: PlistEditType?
        var backup = false
        var force = false
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--type": arguments.read(into: &type)
            case "--backup": arguments.set(&backup)
            case "--force": arguments.set(&force)
            default: false
            }
            guard read else { return nil }
        }
        guard arguments.positionals.count == 3 else { return nil }
        return PlistInsertInvocation(file: arguments.positionals[0], keyPath: arguments.positionals[1], value: arguments.positionals[2],
                                     type: type, backup: backup, force: force)
    }

    func validate() throws {}

    func run() throws {
        try PlistLoader.edit(file, backup: backup, force: force) { bytes throws(PlistError) in
            let root = try PlistEditor.value(of: bytes)
            let insertion = try PlistEditor.insertEdit(in: root, at: KeyPath.parse(keyPath), text: value, type: type)
            return try PlistEditor.apply([insertion], to: bytes)
        }
    }
}
