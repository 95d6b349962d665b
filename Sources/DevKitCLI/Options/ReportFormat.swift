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
