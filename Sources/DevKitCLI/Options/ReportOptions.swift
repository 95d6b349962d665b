import ArgumentParser

/// `--format` for commands that print their findings as text or JSON (`ReportFormat`).
struct ReportOptions: ParsableArguments {
    @Option(name: .long, help: "How to print findings (text|json).")
    var format: ReportFormat = .text
}
