import ArgumentParser

/// `--format` for commands that print rule-engine findings (`FindingFormat`).
struct FindingReportOptions: ParsableArguments {
    @Option(name: .long, help: "How to print findings (text|json|sarif|github|junit|checkstyle|gitlab).")
    var format: FindingFormat = .text
}
