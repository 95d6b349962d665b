import PlistTools
import PropertyList

/// One run of `devkit plist set`: its arguments and what it does with them. Built by
/// ArgumentParser's `Plist.PlistSet` or read directly (`DirectlyParsed`): a script setting
/// values one call at a time (as PlistBuddy's `-c Set` in a loop) pays for each call's start.
struct PlistSetInvocation: DirectlyParsed {
    static let commandPath = ["plist", "set"]

    var file: String
    var keyPath: String
    var value: String
    var type: PlistEditType?
    var createParents = false
    var backup = false
    var force = false

    static func read(_ arguments: inout DirectArguments) -> PlistSetInvocation? {
        var type: PlistEditType?
        var createParents = false
        var backup = false
        var force = false
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--type": arguments.read(into: &type)
            case "--create-parents": arguments.set(&createParents)
            case "--backup": arguments.set(&backup)
            case "--force": arguments.set(&force)
            default: false
            }
            guard read else { return nil }
        }
        guard arguments.positionals.count == 3 else { return nil }
        return PlistSetInvocation(file: arguments.positionals[0], keyPath: arguments.positionals[1], value: arguments.positionals[2],
                                  type: type, createParents: createParents, backup: backup, force: force)
    }

    func validate() throws {}

    func run() throws {
        try PlistLoader.edit(file, backup: backup, force: force) { bytes throws(PlistError) in
            try PlistEditor.set(bytes, at: KeyPath.parse(keyPath), text: value, type: type, createParents: createParents)
        }
    }
}
