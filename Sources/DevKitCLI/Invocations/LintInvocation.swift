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
    var baseline: String?
    var writeBaseline: String?
    var color: ColorChoice = .auto

    static func read(_ arguments: inout DirectArguments) -> LintInvocation? {
        var lint = LintInvocation()
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--strict": arguments.set(&lint.strict)
            case "--fix": arguments.set(&lint.fix)
            case "--list-rules": arguments.set(&lint.listRules)
            case "--no-config": arguments.set(&lint.noConfig)
            case "--built-product": arguments.set(&lint.builtProduct)
            case "--format": arguments.read(into: &lint.format)
            case "--configuration": arguments.read(into: &lint.configuration)
            case "--jobs": arguments.read(into: &lint.jobs)
            case "--enable": arguments.append(to: &lint.enabled)
            case "--disable": arguments.append(to: &lint.disabled)
            case "--config": arguments.read(into: &lint.configPath)
            case "--project-dir": arguments.read(into: &lint.projectDir)
            case "--app": arguments.read(into: &lint.app)
            case "--explain": arguments.read(into: &lint.explain)
            case "--baseline": arguments.read(into: &lint.baseline)
            case "--write-baseline": arguments.read(into: &lint.writeBaseline)
            case "--color": arguments.read(into: &lint.color)
            default: false
            }
            guard read else { return nil }
        }
        lint.paths = arguments.positionals
        return lint
    }

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
        // --write-baseline records every finding; filtering them through another baseline
        // first would silently drop the old entries from the new file.
        if baseline != nil && writeBaseline != nil { throw ValidationError("--baseline and --write-baseline cannot be used together.") }
    }

    func run() throws {
        let registry = BundleRules.lintRegistry
        var result: LintResult
        do {
            if listRules { return try FileHandleOutput.standardOutput(RuleDocumentation.list(registry.descriptions)) }
            if let explain { return try FileHandleOutput.standardOutput(RuleDocumentation.explain(ruleID: explain, in: registry)) }
            // Read before linting, so a broken baseline stops the run at once.
            let accepted = try baseline.map(LintBaseline.read)
            result = try frontend.lint(paths, jobs: jobs, fix: fix)
            if let accepted { result = accepted.apply(to: result) }
        } catch let error as LintConfigurationError {
            throw CommandFailure.input(error.description)
        }
        for warning in result.warnings { FileHandleOutput.standardError(warning + "\n") }
        if let writeBaseline { return try write(result, toBaseline: writeBaseline) }
        try FileHandleOutput.standardOutput(reporter.render(result.findings, rules: result.activeRules))
        for path in result.fixedFiles { FileHandleOutput.standardError("fixed \(path)\n") }
        if !result.inputErrors.isEmpty { throw CommandFailure.input(result.inputErrors.joined(separator: "\n")) }
        if result.hasFailures(strict: strict) { throw CommandFailure.findings() }
    }

    /// --write-baseline: every finding into the baseline, nothing on standard output, exit 0.
    /// Not written when a path could not be linted: that baseline would miss its findings.
    private func write(_ result: LintResult, toBaseline path: String) throws {
        for path in result.fixedFiles { FileHandleOutput.standardError("fixed \(path)\n") }
        if !result.inputErrors.isEmpty { throw CommandFailure.input(result.inputErrors.joined(separator: "\n")) }
        try LintBaseline(findings: result.findings).write(to: path)
        let name = path == "-" ? "<stdout>" : path
        FileHandleOutput.standardError("\(name): \(result.findings.count) finding\(result.findings.count == 1 ? "" : "s") written to the baseline\n")
    }

    /// The format's reporter; text in colour as --color says.
    private var reporter: any Reporter {
        format == .text ? TextReporter(colored: color.enabled) : format.reporter
    }

    /// The plist pack's front end for these flags, with the bundle pack's rules and its
    /// check of `.app` directories.
    private var frontend: PlistLintFrontend {
        PlistLintFrontend(selection: RuleSelection(enabled: enabled, disabled: disabled, configPath: configPath, ignoresConfigFiles: noConfig),
                          isBuiltProduct: builtProduct, configuration: configuration, projectDirectory: projectDir, appInfoPath: app,
                          registry: BundleRules.lintRegistry, directoryChecks: [RequiredReasonCheck(), AppExtensionCheck(), CodeSealCheck()],
                          archiveUnpackers: [IPAArchiveUnpacker()])
    }
}
