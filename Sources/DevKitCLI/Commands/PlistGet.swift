import ArgumentParser
import PlistTools
import PropertyList

extension Plist {
    struct PlistGet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print the value at a key path.",
            discussion: """
                Key paths: dictionary keys and array indices joined by dots, \
                CFBundleURLTypes.0.CFBundleURLSchemes.0; escape a dot or backslash inside a key \
                with a backslash (com\\.apple\\.security\\.app-sandbox). PlistBuddy's form \
                :CFBundleURLTypes:0 works too. An empty path is the whole file.

                Examples:
                  devkit plist get Info.plist CFBundleShortVersionString --raw
                  devkit plist get Info.plist :CFBundleURLTypes:0
                  devkit plist get App.entitlements 'com\\.apple\\.developer\\.icloud-services' --format json
                """
        )

        @Argument(help: "The property list (- for standard input).")
        var file: String

        @Argument(help: "Key path to the value.")
        var keyPath: String

        @Flag(name: .long, help: "Print a scalar bare: strings unquoted, data as raw bytes, dates in ISO-8601.")
        var raw = false

        @Option(name: .long, help: "Print the value as a property list in this format (xml|binary|json|openstep).")
        var format: PlistFormat?

        @OptionGroup var input: InputOptions

        var invocation: PlistGetInvocation {
            PlistGetInvocation(file: file, keyPath: keyPath, raw: raw, format: format, inputFormat: input.format)
        }

        func validate() throws { try invocation.validate() }

        func run() throws { try invocation.run() }
    }
}
