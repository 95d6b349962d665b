import LintKit
import PropertyList

/// App Transport Security is not switched off.
public struct ArbitraryLoads: LintRule {
    public static let description = RuleDescription(
        id: "infoplist.arbitrary-loads", category: .infoPlist, severity: .warning,
        summary: "NSAppTransportSecurity does not set NSAllowsArbitraryLoads to true.",
        rationale: """
            NSAllowsArbitraryLoads turns off App Transport Security for every connection, so \
            plain HTTP and weak TLS are allowed everywhere. App Review asks for a justification \
            and usually wants per-domain NSExceptionDomains instead. Often left over from a \
            debugging session.
            """,
        kinds: [.infoPlist],
        triggering: [RuleExample("<key>NSAppTransportSecurity</key>\n<dict>\n\t↓<key>NSAllowsArbitraryLoads</key>\n\t<true/>\n</dict>")],
        nonTriggering: [
            RuleExample("<key>NSAppTransportSecurity</key>\n<dict>\n\t<key>NSAllowsArbitraryLoads</key>\n\t<false/>\n</dict>"),
            RuleExample("<key>NSAllowsArbitraryLoads</key>\n<true/>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard case .bool(true)? = file["NSAppTransportSecurity"]?[key: "NSAllowsArbitraryLoads"] else { return }
        context.report("NSAllowsArbitraryLoads is true: App Transport Security is off for every connection; prefer NSExceptionDomains",
                       at: KeyPath(["NSAppTransportSecurity", "NSAllowsArbitraryLoads"]))
    }
}
