import ArgumentParser
import LintKit

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
