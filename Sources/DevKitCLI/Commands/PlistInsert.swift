import ArgumentParser
import PlistTools
import PropertyList

extension Plist {
    struct PlistInsert: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "insert",
            abstract: "Insert a value into an array (or add a new dictionary key).",
            discussion: """
                The key path's last component is the index the new element gets; -1 or end \
                appends. In XML files the new element gets a line of its own, indented like \
                its neighbours; nothing else changes. The type is string unless --type says \
                otherwise; --type json or xml inserts a dictionary or array.

                Examples:
                  devkit plist insert Info.plist CFBundleURLTypes.0.CFBundleURLSchemes.end myapp
                  devkit plist insert Info.plist UIBackgroundModes.0 audio
                  devkit plist insert Info.plist CFBundleURLTypes.end --type json '{"CFBundleURLSchemes": ["x"]}'
                """
        )

        @Argument(help: "The property list to edit in place.")
        var file: String

        @Argument(help: "Key path of the new element: ARRAY.INDEX, ARRAY.end (or -1), or DICT.NEWKEY.")
        var keyPath: String

        @OptionGroup var newValue: NewValueOptions

        @OptionGroup var writeOptions: WriteOptions

        var invocation: PlistInsertInvocation {
            PlistInsertInvocation(file: file, keyPath: keyPath, value: newValue.value, type: newValue.type,
                                  backup: writeOptions.backup, force: writeOptions.force)
        }

        func run() throws { try invocation.run() }
    }
}
