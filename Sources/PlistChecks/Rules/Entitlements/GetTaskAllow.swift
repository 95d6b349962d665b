import LintKit
import PropertyList

/// Distribution builds do not allow debuggers to attach.
public struct GetTaskAllow: LintRule {
    public static let description = RuleDescription(
        id: "entitlements.get-task-allow", category: .entitlements, severity: .error,
        summary: "With --configuration release: get-task-allow is not true.",
        rationale: """
            get-task-allow lets a debugger attach; only development provisioning profiles \
            grant it. A distribution (App Store, Ad Hoc, Enterprise) build signed with it does \
            not match its profile: the upload is rejected for invalid entitlements, and an Ad \
            Hoc install fails with "A valid provisioning profile for this executable was not \
            found" — the mirror image of the classic "failed to get the task for process" \
            error when debugging a build signed without it. The fix sets it to false.
            """,
        kinds: [.entitlements], isFixable: true,
        triggering: [RuleExample("↓<key>get-task-allow</key>\n<true/>", options: PlistLintOptions(configuration: .release), expectsFix: true)],
        nonTriggering: [
            RuleExample("<key>get-task-allow</key>\n<true/>", options: PlistLintOptions(configuration: .debug)),
            RuleExample("<key>get-task-allow</key>\n<false/>", options: PlistLintOptions(configuration: .release)),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard file.plistOptions.configuration == .release, case .bool(true)? = file["get-task-allow"] else { return }
        context.report("get-task-allow is true in a release (distribution) build: the signature will not match a distribution profile, so upload or install fails",
                       key: "get-task-allow", fix: .edit(.replace(KeyPath(["get-task-allow"]), .bool(false))))
    }
}
