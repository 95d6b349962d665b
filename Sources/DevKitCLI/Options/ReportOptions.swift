import ArgumentParser
import LintKit

/// Output format for commands that report findings.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json

    var reporter: any Reporter {
        switch self {
        case .text: TextReporter()
        case .json: JSONReporter()
        }
    }
}

struct ReportOptions: ParsableArguments {
    @Option(name: .long, help: "How to print findings (text|json).")
    var format: ReportFormat = .text
}

/// Output format for rule-engine findings: the report formats plus SARIF and GitHub
/// annotations (`plist diff` shares `ReportFormat` and has no use for those).
enum FindingFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif, github

    var reporter: any Reporter {
        switch self {
        case .text: TextReporter()
        case .json: JSONReporter()
        case .sarif: SARIFReporter(toolVersion: DevKit.version)
        case .github: GitHubReporter()
        }
    }
}

struct FindingReportOptions: ParsableArguments {
    @Option(name: .long, help: "How to print findings (text|json|sarif|github).")
    var format: FindingFormat = .text
}
