import ArgumentParser
import System
import PlistTools
import PropertyList

extension Plist {
    struct PlistMerge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Merge another property list into a file (keys added, arrays extended).",
            discussion: """
                Dictionaries merge key by key, recursively; arrays get the elements they lack, \
                appended. A key whose value differs is left as it is and reported on stderr, \
                unless --overwrite replaces it. XML files change only where something is added \
                or replaced. OTHER may be in any format.

                Examples:
                  devkit plist merge App.entitlements extra.entitlements
                  devkit plist merge Info.plist url-types.plist --at CFBundleURLTypes
                  devkit plist merge Settings.plist defaults.json --overwrite
                """
        )

        @Argument(help: "The property list to edit in place.")
        var file: String

        @Argument(help: "The property list whose contents are merged in.")
        var other: String

        @Option(name: .long, help: "Key path of the dictionary or array to merge into (default: the root).")
        var at: String = ""

        @Flag(name: .long, help: "Replace values that differ instead of keeping them.")
        var overwrite = false

        @OptionGroup var writeOptions: WriteOptions

        func run() throws {
            let source = try PlistLoader.load(other, format: nil).value
            var skipped: [KeyPath] = []
            try PlistLoader.edit(file, backup: writeOptions.backup, force: writeOptions.force) { bytes throws(PlistError) in
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
}
