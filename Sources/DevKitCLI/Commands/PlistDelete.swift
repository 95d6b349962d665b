import ArgumentParser
import PlistTools
import PropertyList

extension Plist {
    struct PlistDelete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete the dictionary entry or array element at a key path.",
            discussion: """
                XML files are edited in place: the key and value elements go with their line, \
                and nothing else changes. Binary and JSON files are rewritten from the edited \
                value. A FILE of - reads standard input and writes standard output.

                Examples:
                  devkit plist delete Info.plist UIRequiredDeviceCapabilities
                  devkit plist delete Info.plist :CFBundleURLTypes:0
                """
        )

        @Argument(help: "The property list to edit in place.")
        var file: String

        @Argument(help: "Key path to the entry (dotted, or PlistBuddy's :A:B).")
        var keyPath: String

        @OptionGroup var writeOptions: WriteOptions

        var invocation: PlistDeleteInvocation {
            PlistDeleteInvocation(file: file, keyPath: keyPath, backup: writeOptions.backup, force: writeOptions.force)
        }

        func run() throws { try invocation.run() }
    }
}
