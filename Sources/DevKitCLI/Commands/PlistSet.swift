import ArgumentParser
import System
import PlistTools
import PropertyList

extension Plist {
    struct PlistSet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a value at a key path, changing only that value's bytes.",
            discussion: """
                XML files are edited in place: only the edited element changes, so comments and \
                layout survive. A new key is added at the end of an existing dictionary. Binary \
                files are rewritten from the edited value, JSON files too (in devkit's JSON \
                layout). A FILE of - reads standard input and writes standard output.

                The type is the existing value's; changing it needs --type. A new key is a \
                string unless --type says otherwise. Booleans: true/false/yes/no/1/0; dates: \
                2024-01-31T12:00:00Z; data: base64. --type json or xml takes any value, \
                dictionaries and arrays too, written as JSON or as an XML plist element.

                Examples:
                  devkit plist set Info.plist CFBundleShortVersionString 2.1
                  devkit plist set Info.plist LSRequiresIPhoneOS true --type bool
                  devkit plist set App.entitlements 'com\\.apple\\.security\\.app-sandbox' true
                  devkit plist set Info.plist NSAppTransportSecurity --type json '{"NSAllowsLocalNetworking": true}'
                  devkit plist set Settings.plist Sync.Server.Port 8443 --type integer --create-parents
                """
        )

        @Argument(help: "The property list to edit in place.")
        var file: String

        @Argument(help: "Key path to the value (dotted, or PlistBuddy's :A:B).")
        var keyPath: String

        @OptionGroup var newValue: NewValueOptions

        @Flag(name: .long, help: "Create missing intermediate dictionaries.")
        var createParents = false

        @OptionGroup var writeOptions: WriteOptions

        var invocation: PlistSetInvocation {
            PlistSetInvocation(file: file, keyPath: keyPath, value: newValue.value, type: newValue.type, createParents: createParents,
                               backup: writeOptions.backup, force: writeOptions.force)
        }

        func run() throws { try invocation.run() }
    }
}
