import PlistTools
import PropertyList

/// One run of `devkit plist merge`: its arguments and what it does with them. Built by
/// ArgumentParser's `Plist.PlistMerge` or read directly (`DirectlyParsed`), like `set`.
struct PlistMergeInvocation: DirectlyParsed {
    static let commandPath = ["plist", "merge"]

    var file: String
    var other: String
    var at = ""
    var overwrite = false
    var backup = false
    var force = false

    static func read(_ arguments: inout DirectArguments) -> PlistMergeInvocation? {
        var merge = PlistMergeInvocation(file: "", other: "")
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--at": arguments.read(into: &merge.at)
            case "--overwrite": arguments.set(&merge.overwrite)
            case "--backup": arguments.set(&merge.backup)
            case "--force": arguments.set(&merge.force)
            default: false
            }
            guard read else { return nil }
        }
        guard arguments.positionals.count == 2 else { return nil }
        merge.file = arguments.positionals[0]
        merge.other = arguments.positionals[1]
        return merge
    }

    func validate() throws {}

    func run() throws {
        let source = try PlistLoader.load(other, format: nil).value
        var skipped: [KeyPath] = []
        try PlistLoader.edit(file, backup: backup, force: force) { bytes throws(PlistError) in
            let root = try PlistEditor.value(of: bytes)
            let merge = try PlistEditor.mergeEdits(in: root, other: source, at: KeyPath.parse(at), overwrite: overwrite)
            skipped = merge.skipped
            return merge.edits.isEmpty ? bytes : try PlistEditor.apply(merge.edits, to: bytes)
        }
        for path in skipped {
            FileHandleOutput.standardError("\(file): note: kept \"\(path)\": its value differs in \(other) (--overwrite replaces it)\n")
        }
    }
}
