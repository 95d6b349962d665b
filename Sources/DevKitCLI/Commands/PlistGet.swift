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

        func validate() throws {
            if raw && format != nil { throw ValidationError("--raw and --format cannot be used together.") }
        }

        func run() throws {
            let document = try PlistLoader.load(file, format: input.format)
            let value: PlistValue
            do {
                value = try document.value.value(at: KeyPath.parse(keyPath))
            } catch {
                throw CommandFailure.input("\(file): error: \(error.message)")
            }
            if let format {
                try FileHandleOutput.standardOutput(try PlistLoader.serialize(value, as: format, source: file))
            } else if raw {
                try FileHandleOutput.standardOutput(PlistPrinter.raw(value))
            } else {
                try FileHandleOutput.standardOutput(PlistPrinter().render(value))
            }
        }
    }
}

extension Plist.PlistGet: DirectlyParsed {
    static let commandPath = ["plist", "get"]

    static func read(_ arguments: inout DirectArguments) -> Self? {
        var command = Self()
        command.raw = false
        command.format = nil
        command.input = .directDefaults
        while let option = arguments.nextOption() {
            switch option {
            case "--raw":
                guard arguments.isFlag() else { return nil }
                command.raw = true
            case "--format":
                guard let value = arguments.value(PlistFormat.self) else { return nil }
                command.format = value
            default:
                guard command.input.read(option, &arguments) == .taken else { return nil }
            }
        }
        guard arguments.positionals.count == 2 else { return nil }
        command.file = arguments.positionals[0]
        command.keyPath = arguments.positionals[1]
        return command
    }
}
