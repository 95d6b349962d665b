import LintKit
import PropertyList

/// LSApplicationQueriesSchemes stays within what iOS honours.
public struct QueriesSchemesLimit: LintRule {
    public static let description = RuleDescription(
        id: "infoplist.queries-schemes-limit", category: .infoPlist, severity: .warning,
        summary: "LSApplicationQueriesSchemes has at most 50 entries.",
        rationale: """
            Since iOS 15, canOpenURL(_:) answers only for the first 50 schemes listed (on \
            apps linked against the iOS 15 SDK or later); the others always return false, so \
            features behind them silently stop working.
            """,
        kinds: [.infoPlist],
        options: [RuleOption("max", default: .integer(50), "the largest number of schemes allowed")],
        triggering: [RuleExample("↓<key>LSApplicationQueriesSchemes</key>\n<array>\n\t<string>fb</string>\n\t<string>twitter</string>\n\t<string>mailto</string>\n</array>",
                                 ruleOptions: ["max": .integer(2)])],
        nonTriggering: [RuleExample("<key>LSApplicationQueriesSchemes</key>\n<array>\n\t<string>fb</string>\n</array>")])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let limit = context.integerOption("max", default: 50)
        guard let schemes = file["LSApplicationQueriesSchemes"]?.arrayValue, schemes.count > limit else { return }
        context.report("LSApplicationQueriesSchemes lists \(schemes.count) schemes; canOpenURL answers only for the first \(limit)",
                       key: "LSApplicationQueriesSchemes")
    }
}
