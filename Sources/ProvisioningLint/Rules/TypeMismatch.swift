import LintKit
import PropertyList

/// The profile's type must be the one the build expects (`--expect`).
///
/// Triggers when the option `expect` (development, adhoc, enterprise or appstore) is set and
/// the profile's type (from its devices and get-task-allow) differs.
public struct TypeMismatch: LintRule {
    public static let description = RuleDescription(
        id: "profile.type-mismatch", category: .provisioning, severity: .error,
        summary: "The profile's type must match the expected one (--expect).",
        rationale: """
            A development profile in an App Store upload is rejected by App Store Connect; an \
            App Store profile in a tester build installs on no device. Saying what the build \
            is for catches the wrong profile picked by automatic signing or a script.
            """,
        kinds: [.provisioningProfile],
        options: [RuleOption("expect", default: .string(""), "development, adhoc, enterprise or appstore; empty: no check.")],
        triggering: [
            RuleExample("↓<key>type</key>\n<string>development</string>", ruleOptions: ["expect": .string("appstore")])
        ],
        nonTriggering: [
            RuleExample("<key>type</key>\n<string>appstore</string>", ruleOptions: ["expect": .string("appstore")]),
            RuleExample("<key>type</key>\n<string>development</string>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard case .string(let expected)? = context.ruleOptions["expect"], !expected.isEmpty,
              let type = file["type"]?.stringValue, type != expected else { return }
        context.report(Self.mismatch(type, expected), key: "type")
    }

    private static func mismatch(_ type: String, _ expected: String) -> String {
        "the profile is \(ProvisioningWording.profileType(type)), expected \(ProvisioningWording.profileType(expected))"
    }
}
