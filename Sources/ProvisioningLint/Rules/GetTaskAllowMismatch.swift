import LintKit
import PropertyList

/// `get-task-allow` must fit the profile's purpose.
///
/// Triggers when an App Store or enterprise profile grants get-task-allow (Apple refuses
/// such builds), and when the build is expected to be a development build (`expect:
/// development`) but the profile does not grant it: the debugger could not attach.
public struct GetTaskAllowMismatch: LintRule {
    public static let description = RuleDescription(
        id: "profile.get-task-allow", category: .provisioning, severity: .error,
        summary: "get-task-allow must be true for development and absent or false for distribution.",
        rationale: """
            "Failed to get the task for process": a build signed with a distribution profile \
            has get-task-allow false, so Xcode's or lldb's debugger cannot attach. The other \
            way round, App Store Connect rejects a build whose profile allows debugging.
            """,
        kinds: [.provisioningProfile],
        options: [RuleOption("expect", default: .string(""), "The intended type (as for profile.type-mismatch); development requires get-task-allow.")],
        triggering: [
            RuleExample("<key>type</key>\n<string>appstore</string>\n↓<key>getTaskAllow</key>\n<true/>"),
            RuleExample("<key>type</key>\n<string>adhoc</string>\n↓<key>getTaskAllow</key>\n<false/>", ruleOptions: ["expect": .string("development")]),
        ],
        nonTriggering: [
            RuleExample("<key>type</key>\n<string>appstore</string>\n<key>getTaskAllow</key>\n<false/>"),
            RuleExample("<key>type</key>\n<string>development</string>\n<key>getTaskAllow</key>\n<true/>", ruleOptions: ["expect": .string("development")]),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let type = file["type"]?.stringValue ?? ""
        let allowed = file["getTaskAllow"]?.bool
        if (type == "appstore" || type == "enterprise"), allowed == true {
            context.report(Self.distributionAllowsDebugging(type), key: "getTaskAllow")
        }
        if case .string("development")? = context.ruleOptions["expect"], allowed != true {
            context.report(Self.debuggerCannotAttach(type), key: "getTaskAllow")
        }
    }

    private static func distributionAllowsDebugging(_ type: String) -> String {
        "\(ProvisioningWording.profileType(type)) grants get-task-allow; distribution builds must not allow debugging"
    }

    private static func debuggerCannotAttach(_ type: String) -> String {
        "get-task-allow is not granted (\(ProvisioningWording.profileType(type))): the debugger cannot attach (\"failed to get the task for process\")"
    }
}
