import ArgumentParser

/// `--format` for commands that print rule-engine findings (`FindingFormat`).
struct FindingReportOptions: ParsableArguments {
    @Option(name: .long, help: "How to print findings (text|json|sarif|github).")
    var format: FindingFormat = .text
}

extension FindingReportOptions {
    /// The options as ArgumentParser leaves them when none is given (`DirectlyParsed`).
    static var directDefaults: FindingReportOptions {
        var options = FindingReportOptions()
        options.format = .text
        return options
    }

    mutating func read(_ option: String, _ arguments: inout DirectArguments) -> DirectOptionOutcome {
        guard option == "--format" else { return .unknown }
        guard let value = arguments.value(FindingFormat.self) else { return .refused }
        format = value
        return .taken
    }
}
