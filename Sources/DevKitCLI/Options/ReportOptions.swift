import ArgumentParser

/// `--format` for commands that print their findings as text or JSON (`ReportFormat`).
struct ReportOptions: ParsableArguments {
    @Option(name: .long, help: "How to print findings (text|json).")
    var format: ReportFormat = .text
}

extension ReportOptions {
    /// The options as ArgumentParser leaves them when none is given (`DirectlyParsed`).
    static var directDefaults: ReportOptions {
        var options = ReportOptions()
        options.format = .text
        return options
    }

    mutating func read(_ option: String, _ arguments: inout DirectArguments) -> DirectOptionOutcome {
        guard option == "--format" else { return .unknown }
        guard let value = arguments.value(ReportFormat.self) else { return .refused }
        format = value
        return .taken
    }
}
