import ArgumentParser

/// A command that hooks and scripts call many times a minute, read straight from its
/// arguments when they have the plain shapes `DirectArguments` reads.
///
/// ArgumentParser finds a command's options by reflection: its first-time protocol-conformance
/// lookups scan the binary's ~5,800 conformance records some 40 times, 14.7 M of the 18.4 M
/// instructions of `devkit plist get Info.plist KEY` (Scripts/bench/startup). A reader here
/// sets every property itself, defaults included, and gives up (nil) on anything it does not
/// know, so ArgumentParser still reads every other line, with its help and messages.
/// `DirectParseTests` checks each reader against ArgumentParser's parse of the same lines.
protocol DirectlyParsed: ParsableCommand {
    /// The subcommand names after `devkit`, e.g. `["plist", "get"]`.
    static var commandPath: [String] { get }

    /// The command with every property set from `arguments`, or nil when it holds anything
    /// this reader does not know (ArgumentParser then reads the line). A static function, not
    /// an initializer: inside an initializer, assigning a wrapped property re-creates the
    /// wrapper (`init(wrappedValue:)`, a default still to be parsed) instead of setting it.
    static func read(_ arguments: inout DirectArguments) -> Self?
}

enum DirectParse {
    static let commands: [any DirectlyParsed.Type] = [
        Plist.PlistGet.self, Plist.PlistLint.self, Lint.self, Symbolicate.self,
    ]

    /// The command `arguments` (argv without the program) name, read directly and
    /// validated, or nil for ArgumentParser to read.
    static func command(_ arguments: [String]) -> (any ParsableCommand)? {
        for type in commands where arguments.starts(with: type.commandPath) {
            return command(type, arguments.dropFirst(type.commandPath.count))
        }
        return nil
    }

    private static func command<Command: DirectlyParsed>(_ type: Command.Type, _ arguments: ArraySlice<String>) -> Command? {
        var reader = DirectArguments(arguments)
        guard var command = Command.read(&reader), !reader.isUnreadable else { return nil }
        // A line the command refuses is read again by ArgumentParser, which words the error.
        guard (try? command.validate()) != nil else { return nil }
        return command
    }
}
