import ArgumentParser
import LintKit

struct FindingReportOptions: ParsableArguments {
    @Option(name: .long, help: "How to print findings (text|json|sarif|github).")
    var format: FindingFormat = .text
}
