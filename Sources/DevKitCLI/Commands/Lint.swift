import ArgumentParser
import BundleChecks
import System
import LintKit
import PlistChecks

/// `devkit lint`: the rule engine over Info.plists, entitlements, OTA manifests and any plist.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check property lists against devkit's rules (Info.plist, entitlements, privacy manifests, OTA manifests, String Catalogs, hygiene) and app bundles' required-reason APIs.",
        discussion: """
            PATHs are files or directories (walked for *.plist, *.entitlements, *.xcent, \
            *.xcprivacy, *.strings, *.stringsdict, *.xcstrings; hidden and .gitignored entries skipped); \
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
              devkit lint --write-baseline .devkit-baseline.json   # accept today's findings
              devkit lint --baseline .devkit-baseline.json         # report only new ones
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

    @Option(help: ArgumentHelp("Report only findings this baseline file does not hold (keyed by rule, file and key path, not line).", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("Write every finding to this baseline file (atomically) instead of reporting them, and exit 0.", valueName: "file"))
    var writeBaseline: String?

    @Option(help: "Colour the text format: auto (when standard output is a terminal and NO_COLOR is unset), always, never.")
    var color: ColorChoice = .auto

    var invocation: LintInvocation {
        LintInvocation(paths: paths, format: report.format, enabled: rules.enabled, disabled: rules.disabled,
                       configPath: rules.configPath, noConfig: rules.noConfig, builtProduct: rules.builtProduct,
                       configuration: rules.configuration, projectDir: rules.projectDir, app: rules.app,
                       strict: strict, fix: fix, jobs: jobs, listRules: listRules, explain: explain,
                       baseline: baseline, writeBaseline: writeBaseline, color: color)
    }

    func validate() throws { try invocation.validate() }

    func run() throws { try invocation.run() }
}
