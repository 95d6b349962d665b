import ArgumentParser
import LintConfigFile
import LintKit
import PlistChecks
import Provisioning
import ProvisioningLint

extension Provision {
    struct ProvisionLint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Check profiles and signed apps for the causes of install and debugging failures.",
            discussion: """
                Rules: expired or expiring profile and certificates, invalid signature, type \
                other than --expect, get-task-allow for the type, devices not provisioned \
                (--device), and for .app/.ipa: missing embedded profile, bundle identifier not \
                matched by the App ID, binary entitlements not granted, team mismatch, plus the \
                Info.plist rules of devkit lint on the app's Info.plist. --enable/--disable \
                take rule ids (devkit provision lint --list-rules).

                Exit status: 0 clean, 1 errors found (warnings too with --strict), 2 unreadable input.

                Examples:
                  devkit provision lint --expect appstore build/App.ipa
                  devkit provision lint --device 00008030-001A2B3C4D5E6F70 --warn-days 14 *.mobileprovision
                  devkit provision lint --format sarif App.ipa > provision.sarif
                """
        )

        @Argument(help: "Profiles, .app directories or .ipa archives.")
        var files: [String] = []

        @Option(help: ArgumentHelp("The intended profile type (development|adhoc|enterprise|appstore).", valueName: "type"))
        var expect: ProfileKind?

        @Option(name: .customLong("device"), help: ArgumentHelp("A device UDID that must be provisioned (repeatable).", valueName: "UDID"))
        var devices: [String] = []

        @Option(name: .customLong("warn-days"), help: "Warn when a profile or certificate expires within this many days (default 30).")
        var warnDays: Int?

        @Option(name: .customLong("enable"), help: ArgumentHelp("Run a rule that is off.", valueName: "rule"))
        var enabled: [String] = []

        @Option(name: .customLong("disable"), help: ArgumentHelp("Do not run a rule.", valueName: "rule"))
        var disabled: [String] = []

        @Option(name: .customLong("config"), help: ArgumentHelp("Settings file to use instead of the nearest .devkit.yml (its lint: section).", valueName: "file"))
        var configPath: String?

        @Flag(name: .customLong("no-config"), help: "Ignore .devkit.yml files.")
        var noConfig = false

        @Flag(help: "Exit 1 on warnings too, not only errors.")
        var strict = false

        @Flag(help: "List the provisioning rules and exit.")
        var listRules = false

        @OptionGroup var report: FindingReportOptions
        @OptionGroup var options: ProvisionOptions

        func validate() throws {
            if files.isEmpty && !listRules { throw ValidationError("Name at least one profile, .app or .ipa.") }
            if let warnDays, warnDays < 0 { throw ValidationError("--warn-days must not be negative.") }
        }

        func run() throws {
            if listRules { return try FileHandleOutput.standardOutput(RuleDocumentation.list(ProvisioningRules.registry.descriptions)) }
            let selection = RuleSelection(enabled: enabled, disabled: disabled, configPath: configPath, ignoresConfigFiles: noConfig)
            let settings = ProvisioningLintSettings(selection: selection, expectedKind: expect, devices: devices, warnDays: warnDays)
            let linter: ProvisioningLinter
            do { linter = try ProvisioningLinter(configuration: try settings.configuration(), now: options.instant, trustRoots: try options.trustRoots(), infoPlistRules: PlistRules.registry) } catch let error as LintConfigurationError {
                throw CommandFailure.input(error.description)
            }
            let result = linter.lint(paths: files)
            try FileHandleOutput.standardOutput(report.format.reporter.render(result.findings, rules: result.activeRules))
            if !result.inputErrors.isEmpty { throw CommandFailure.input(result.inputErrors.joined(separator: "\n")) }
            if result.hasFailures(strict: strict) { throw CommandFailure.findings() }
        }
    }
}

extension ProfileKind: ExpressibleByArgument {}
