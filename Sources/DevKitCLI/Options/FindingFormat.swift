import ArgumentParser
import LintKit

/// Output format for rule-engine findings: the report formats plus SARIF, GitHub
/// annotations, JUnit, Checkstyle and GitLab Code Quality (`plist diff` shares `ReportFormat`
/// and has no use for those).
enum FindingFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif, github, junit, checkstyle, gitlab

    var reporter: any Reporter {
        switch self {
        case .text: TextReporter()
        case .json: JSONReporter()
        case .sarif: SARIFReporter(toolVersion: DevKit.version)
        case .github: GitHubReporter()
        case .junit: JUnitReporter()
        case .checkstyle: CheckstyleReporter()
        case .gitlab: GitLabReporter()
        }
    }
}
