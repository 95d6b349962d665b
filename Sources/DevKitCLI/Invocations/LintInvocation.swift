import ArgumentParser
import BundleChecks
import LintConfigFile
import LintKit
import PlistChecks
import System

/// One run of `devkit lint`: its arguments and what it does with them. Built by
/// ArgumentParser's `Lint` or read directly (`DirectlyParsed`).
struct LintInvocation: DirectlyParsed {
    static let commandPath = ["lint"]

    var paths: [String] = []
    var format: FindingFormat = .text
    var enabled: [String] = []
    var disabled: [String] = []
    var configPath: String?
    var noConfig = false
    var builtProduct = false
    var configuration: BuildConfiguration?
    var projectDir: String?
    var app: String?
    var strict = false
    var fix = false
    var jobs = Processors.online
    var listRules = false
    var explain: String?

    static func read(_ arguments: inout DirectArguments) -> LintInvocation? {
        var lint = LintInvocation()
        while let option = arguments.nextOption() {
            switch option {
            case "--strict", "--fix", "--list-rules", "--no-config", "--built-product":
                guard arguments.isFlag() else { return nil }
                switch option {
                case "--strict": lint.strict = true
                case "--fix": lint.fix = true
                case "--list-rules": lint.listRules = true
                case "--no-config": lint.noConfig = true
                default: lint.builtProduct = true
                }
            case "--format":
                guard let value = arguments.value(FindingFormat.self) else { return nil }
                lint.format = value
            case "--configuration":
                guard let value = arguments.value(BuildConfiguration.self) else { return nil }
                lint.configuration = value
            case "--jobs":
                guard let value = arguments.value(Int.self) else { return nil }
                lint.jobs = value
            case "--enable", "--disable", "--config", "--project-dir", "--app", "--explain":
                guard let value = arguments.value() else { return nil }
                switch option {
                case "--enable": lint.enabled.append(value)
                case "--disable": lint.disabled.append(value)
                case "--config": lint.configPath = value
                case "--project-dir": lint.projectDir = value
                case "--app": lint.app = value
                default: lint.explain = value
                }
            default:
                return nil
            }
        }
        lint.paths = arguments.positionals
        return lint
    }

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
    }

    func run() throws {
        let registry = BundleRules.lintRegistry
        let result: LintResult
        do {
            if listRules { return try FileHandleOutput.standardOutput(RuleDocumentation.list(registry.descriptions)) }
            if let explain { return try FileHandleOutput.standardOutput(RuleDocumentation.explain(ruleID: explain, in: registry)) }
            result = try frontend.lint(paths, jobs: jobs, fix: fix)
        } catch let error as LintConfigurationError {
            throw CommandFailure.input(error.description)
        }
        for warning in result.warnings { FileHandleOutput.standardError(warning + "\n") }
        try FileHandleOutput.standardOutput(format.reporter.render(result.findings, rules: result.activeRules))
        for path in result.fixedFiles { FileHandleOutput.standardError("fixed \(path)\n") }
        if !result.inputErrors.isEmpty { throw CommandFailure.input(result.inputErrors.joined(separator: "\n")) }
        if result.hasFailures(strict: strict) { throw CommandFailure.findings() }
    }

    /// The plist pack's front end for these flags, with the bundle pack's rules and its
    /// check of `.app` directories.
    private var frontend: PlistLintFrontend {
        PlistLintFrontend(selection: RuleSelection(enabled: enabled, disabled: disabled, configPath: configPath, ignoresConfigFiles: noConfig),
                          isBuiltProduct: builtProduct, configuration: configuration, projectDirectory: projectDir, appInfoPath: app,
                          registry: BundleRules.lintRegistry, directoryChecks: [RequiredReasonCheck()])
    }
}
