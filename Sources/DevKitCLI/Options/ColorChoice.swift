import ArgumentParser

/// `--color auto|always|never`: `auto` colours when standard output is a terminal that wants
/// colour (NO_COLOR unset, TERM not dumb); `always` and `never` are the user's explicit
/// choice and win over NO_COLOR, as no-color.org intends for flags.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    var enabled: Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: FileHandleOutput.standardOutputWantsColor
        }
    }
}
