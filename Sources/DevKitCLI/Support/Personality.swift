/// An Apple tool devkit can stand in for, chosen by the name devkit was run as (a link named
/// `atos`, `PlistBuddy`) or by the first argument (`devkit atos …`). Their command lines are not
/// ArgumentParser's (`-o`, `-arch`, `-fullPath`), so they are dispatched before it parses.
enum Personality: String, CaseIterable {
    case atos
    case plistBuddy = "PlistBuddy"
    case plutil

    /// The personality and its arguments for a process started with `arguments` (argv,
    /// program name first), or nil for devkit's own command line.
    static func match(_ arguments: [String]) -> (Personality, [String])? {
        let program = arguments.first.flatMap { $0.split(separator: "/").last.map(String.init) }
        if let program, let personality = Personality(rawValue: program) {
            return (personality, Array(arguments.dropFirst()))
        }
        guard arguments.count > 1, let personality = Personality(rawValue: arguments[1]) else { return nil }
        // `devkit atos --help` is devkit's help for it.
        if arguments.count > 2, ["--help", "-help", "help"].contains(arguments[2]) { return nil }
        return (personality, Array(arguments.dropFirst(2)))
    }

    func run(_ arguments: [String]) throws {
        switch self {
        case .atos: try Atos.run(arguments)
        case .plistBuddy: try PlistBuddyTool.run(arguments)
        case .plutil: try Plutil.run(arguments)
        }
    }
}
