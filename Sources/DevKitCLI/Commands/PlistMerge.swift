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

        var invocation: PlistMergeInvocation {
            PlistMergeInvocation(file: file, other: other, at: at, overwrite: overwrite, backup: writeOptions.backup, force: writeOptions.force)
        }

        func run() throws { try invocation.run() }
    }
}
