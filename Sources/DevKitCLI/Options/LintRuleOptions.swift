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
}

extension BuildConfiguration: ExpressibleByArgument {}
