import ArgumentParser

/// One run of a command that hooks and scripts call many times a minute: its arguments as
/// plain values and what it does with them. ArgumentParser's command builds one from what it
/// parsed; `DirectParse` reads one straight from a plain command line.
///
/// ArgumentParser finds a command's options by reflection, and builds its property wrappers'
/// generic types at run time: first-time protocol-conformance lookups that each scan the
/// binary's ~5,800 conformance records, 14.7 M of the 18.4 M instructions of
/// `devkit plist get Info.plist KEY` (Scripts/bench/startup). A direct reader touches no
/// ArgumentParser type and gives up (nil) on anything but plain long options and positionals,
/// so ArgumentParser still reads every other line, with its help and messages.
/// `DirectParseTests` checks each reader against ArgumentParser's parse of the same lines.
protocol DirectlyParsed: Equatable {
    /// The subcommand names after `devkit`, e.g. `["plist", "get"]`.
    static var commandPath: [String] { get }

    /// The invocation `arguments` hold, or nil when they hold anything this reader does not
    /// know (ArgumentParser then reads the line).
    static func read(_ arguments: inout DirectArguments) -> Self?

    /// Throws ArgumentParser's `ValidationError` for arguments the command refuses.
    func validate() throws

    func run() throws
}
