import ArgumentParser
import BundleChecks
import LintConfigFile
import LintKit
import PlistChecks

/// Which rules run and what they know about the product (`devkit lint` and rule-based
/// subcommands).
struct LintRuleOptions: ParsableArguments {
    @Option(name: .customLong("enable"), help: ArgumentHelp("Run a rule that is off (by default or in the config).", valueName: "rule"))
    var enabled: [String] = []

    @Option(name: .customLong("disable"), help: ArgumentHelp("Do not run a rule.", valueName: "rule"))
    var disabled: [String] = []

    @Option(name: .customLong("config"), help: ArgumentHelp("Settings file to use instead of the nearest .devkit.yml.", valueName: "file"))
    var configPath: String?

    @Flag(help: "Ignore .devkit.yml files.")
    var noConfig = false

    @Flag(help: "The files are a built product: build settings must be expanded, binary plists are expected.")
    var builtProduct = false

    @Option(help: "The configuration the files are for (debug|release); release turns on distribution checks.")
    var configuration: BuildConfiguration?

    @Option(help: ArgumentHelp("The project folder, to check that files named by keys (main nib, storyboard) exist.", valueName: "dir"))
    var projectDir: String?

    @Option(help: ArgumentHelp("The app's Info.plist, to compare an OTA manifest with.", valueName: "file"))
    var app: String?

    /// The plist pack's front end for these flags, with the bundle pack's rules and its
    /// check of `.app` directories.
    var frontend: PlistLintFrontend {
        PlistLintFrontend(selection: RuleSelection(enabled: enabled, disabled: disabled, configPath: configPath, ignoresConfigFiles: noConfig),
                          isBuiltProduct: builtProduct, configuration: configuration, projectDirectory: projectDir, appInfoPath: app,
                          registry: BundleRules.lintRegistry, directoryChecks: [RequiredReasonCheck()])
    }
}

extension BuildConfiguration: ExpressibleByArgument {}

extension LintRuleOptions {
    /// The options as ArgumentParser leaves them when none is given (`DirectlyParsed`).
    static var directDefaults: LintRuleOptions {
        var options = LintRuleOptions()
        options.enabled = []
        options.disabled = []
        options.configPath = nil
        options.noConfig = false
        options.builtProduct = false
        options.configuration = nil
        options.projectDir = nil
        options.app = nil
        return options
    }

    mutating func read(_ option: String, _ arguments: inout DirectArguments) -> DirectOptionOutcome {
        switch option {
        case "--no-config", "--built-product":
            guard arguments.isFlag() else { return .refused }
            if option == "--no-config" { noConfig = true } else { builtProduct = true }
        case "--configuration":
            guard let value = arguments.value(BuildConfiguration.self) else { return .refused }
            configuration = value
        case "--enable", "--disable", "--config", "--project-dir", "--app":
            guard let value = arguments.value() else { return .refused }
            switch option {
            case "--enable": enabled.append(value)
            case "--disable": disabled.append(value)
            case "--config": configPath = value
            case "--project-dir": projectDir = value
            default: app = value
            }
        default:
            return .unknown
        }
        return .taken
    }
}
