import LintKit
import PlistChecks
import PropertyList
import Provisioning

/// Lints profiles, `.app` directories and `.ipa` archives: reads each, builds the subject
/// the rules see (`ProfileReport.value`), runs the provisioning rules, and for apps the
/// Info.plist rules of another pack over the app's Info.plist.
public struct ProvisioningLinter: Sendable {
    let engine: LintEngine
    let infoPlistEngine: LintEngine?
    let report: ProfileReport
    let trustRoots: TrustRoots?

    /// `infoPlistRules`: a registry whose Info.plist rules run on apps' Info.plists (nil: none).
    /// `configuration` (a `.devkit.yml` `lint:` section and the command line) may name rules
    /// of either pack; each engine gets the part about its own rules.
    public init(configuration: LintConfiguration, now: PlistDate, trustRoots: TrustRoots?, infoPlistRules: RuleRegistry?) throws(LintConfigurationError) {
        let infoTypes = infoPlistRules?.rules.map { type(of: $0) } ?? []
        try RuleRegistry(ProvisioningRules.all + infoTypes, classifier: infoPlistRules?.classifier ?? PropertyListFiles()).validate(configuration)
        engine = try LintEngine(registry: ProvisioningRules.registry, configuration: Self.restricted(configuration, to: ProvisioningRules.registry))
        if let infoPlistRules {
            // An app in a bundle or archive is a built product: build settings must be expanded.
            infoPlistEngine = try LintEngine(registry: infoPlistRules, configuration: Self.restricted(configuration, to: infoPlistRules),
                                             options: PlistLintOptions(isBuiltProduct: true))
        } else {
            infoPlistEngine = nil
        }
        report = ProfileReport(now: now)
        self.trustRoots = trustRoots
    }

    /// The settings that name rules and file kinds of `registry` (an engine refuses those it
    /// does not know).
    static func restricted(_ configuration: LintConfiguration, to registry: RuleRegistry) -> LintConfiguration {
        let known = Set(registry.descriptions.map(\.id))
        var c = configuration
        c.enabledRules = c.enabledRules.filter(known.contains)
        c.disabledRules = c.disabledRules.filter(known.contains)
        c.severities = c.severities.filter { known.contains($0.key) }
        c.ruleOptions = c.ruleOptions.filter { known.contains($0.key) }
        c.onlyRules = c.onlyRules?.filter(known.contains)
        c.kinds = c.kinds.filter { registry.classifier.kinds.contains($0.kind) }
        return c
    }

    /// The rules that run (for SARIF's rule list).
    public var activeRules: [RuleDescription] { engine.activeRules + (infoPlistEngine?.activeRules ?? []) }

    /// Findings for every path, in order; a path that cannot be read is an input error.
    public func lint(paths: [String]) -> LintResult {
        var result = LintResult(findings: [], inputErrors: [], activeRules: activeRules)
        for path in paths {
            switch lint(path: path) {
            case .success(let found): result.findings += found
            case .failure(let error): result.inputErrors.append(error.inFile(path).description)
            }
        }
        return result
    }

    /// Findings for `path`, or the reason it could not be read (a usage/input error).
    public func lint(path: String) -> Result<[Finding], ProvisioningError> {
        Result { () throws(ProvisioningError) -> [Finding] in
            let input = try ProvisioningInput.load(path)
            let binary = try input.appBinaryEntitlements()
            var findings: [Finding] = []
            if let app = input.app, app.embeddedProfile == nil {
                findings += engine.lint(ProvisioningRules.file(path: app.location, subject: report.value(app: app, binary: binary)))
            } else {
                let (signed, source) = try input.signedProfile(trustRoots: trustRoots)
                let subject = report.value(signed, source: source, app: input.app, binary: binary)
                findings += engine.lint(ProvisioningRules.file(path: source, subject: subject))
            }
            if let app = input.app, let infoPlistEngine {
                findings += infoPlistEngine.lint(path: app.location + "/Info.plist", bytes: app.infoPlistBytes, kind: .infoPlist)
            }
            return findings
        }
    }
}
