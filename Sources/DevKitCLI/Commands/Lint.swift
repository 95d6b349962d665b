import ArgumentParser
import BundleChecks
import System
import LintKit
import PlistChecks

/// `devkit lint`: the rule engine over Info.plists, entitlements, OTA manifests and any plist.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check property lists against devkit's rules (Info.plist, entitlements, privacy manifests, OTA manifests, hygiene) and app bundles' required-reason APIs.",
        discussion: """
            PATHs are files or directories (walked for *.plist, *.entitlements, *.xcent, \
            *.xcprivacy, *.strings, *.stringsdict; hidden and .gitignored entries skipped); \
            default: the current directory. An .app directory is also checked as a bundle: \
            the required-reason APIs each binary imports against its bundle's privacy \
            manifest (ITMS-91053), and commonly used SDKs' manifests (ITMS-91061). Settings come from the nearest .devkit.yml upward (lint: \
            section), then the command line. Suppress in XML with \
            <!-- devkit:disable RULE --> before an entry, <!-- devkit:disable-file RULE --> \
            for the file.

            Exit status: 0 clean, 1 errors found (warnings too with --strict), 2 usage or \
            input error.

            Examples:
              devkit lint
              devkit lint App/Info.plist --format sarif > lint.sarif
              devkit lint build/Release-iphoneos/App.app
              devkit lint --configuration release App.entitlements
              devkit lint --explain infoplist.short-version-format
            """
    )

    @Argument(help: "Files or directories to lint.")
    var paths: [String] = []

    @OptionGroup var report: FindingReportOptions
    @OptionGroup var rules: LintRuleOptions

    @Flag(help: "Exit 1 on warnings too, not only errors.")
    var strict = false

    @Flag(help: "Apply safe fixes in place (XML files), then report what is left.")
    var fix = false

    @Option(help: "Files linted at once (default: one per core).")
    var jobs: Int = Processors.online

    @Flag(help: "List every rule and exit.")
    var listRules = false

    @Option(help: ArgumentHelp("Print a rule's documentation and examples, and exit.", valueName: "rule"))
    var explain: String?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
    }

    func run() throws {
        let registry = BundleRules.lintRegistry
        let result: LintResult
        do {
            if listRules { return try FileHandleOutput.standardOutput(RuleDocumentation.list(registry.descriptions)) }
            if let explain { return try FileHandleOutput.standardOutput(RuleDocumentation.explain(ruleID: explain, in: registry)) }
            result = try rules.frontend.lint(paths, jobs: jobs, fix: fix)
        } catch let error as LintConfigurationError {
            throw CommandFailure.input(error.description)
        }
        for warning in result.warnings { FileHandleOutput.standardError(warning + "\n") }
        try FileHandleOutput.standardOutput(report.format.reporter.render(result.findings, rules: result.activeRules))
        for path in result.fixedFiles { FileHandleOutput.standardError("fixed \(path)\n") }
        if !result.inputErrors.isEmpty { throw CommandFailure.input(result.inputErrors.joined(separator: "\n")) }
        if result.hasFailures(strict: strict) { throw CommandFailure.findings() }
    }
}

extension Lint: DirectlyParsed {
    static let commandPath = ["lint"]

    static func read(_ arguments: inout DirectArguments) -> Self? {
        var command = Self()
        command.report = .directDefaults
        command.rules = .directDefaults
        command.strict = false
        command.fix = false
        command.jobs = Processors.online
        command.listRules = false
        command.explain = nil
        while let option = arguments.nextOption() {
            switch option {
            case "--strict", "--fix", "--list-rules":
                guard arguments.isFlag() else { return nil }
                switch option {
                case "--strict": command.strict = true
                case "--fix": command.fix = true
                default: command.listRules = true
                }
            case "--jobs":
                guard let value = arguments.value(Int.self) else { return nil }
                command.jobs = value
            case "--explain":
                guard let value = arguments.value() else { return nil }
                command.explain = value
            default:
                guard command.report.read(option, &arguments) == .taken || command.rules.read(option, &arguments) == .taken else { return nil }
            }
        }
        command.paths = arguments.positionals
        return command
    }
}
