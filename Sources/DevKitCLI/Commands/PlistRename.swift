import ArgumentParser
import PlistTools
import PropertyList

extension Plist {
    struct PlistRename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename",
            abstract: "Rename a dictionary key, keeping the entry's place and value.",
            discussion: """
                In XML files only the <key> element changes. Renaming to a key that already \
                exists is an error.

                Examples:
                  devkit plist rename Info.plist NSLocationUsageDescription NSLocationWhenInUseUsageDescription
                  devkit plist rename Settings.plist :Servers:Primary Main
                """
        )

        @Argument(help: "The property list to edit in place.")
        var file: String

        @Argument(help: "Key path of the entry to rename.")
        var keyPath: String

        @Argument(help: "The new key (the key itself, not a path).")
        var newKey: String

        @OptionGroup var writeOptions: WriteOptions

        var invocation: PlistRenameInvocation {
            PlistRenameInvocation(file: file, keyPath: keyPath, newKey: newKey, backup: writeOptions.backup, force: writeOptions.force)
        }

        func run() throws { try invocation.run() }
    }
}
