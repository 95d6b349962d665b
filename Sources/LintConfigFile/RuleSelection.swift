import System
import LintKit

/// What the command line says about which rules run and where their settings come from
/// (`--enable`, `--disable`, `--config`, `--no-config`), turned into a run's configuration.
public struct RuleSelection: Sendable {
    /// Rules to run although off by default or in the config file (`--enable`).
    public var enabled: [String]
    /// Rules not to run (`--disable`).
    public var disabled: [String]
    /// A config file to read instead of the nearest `.devkit.yml` (`--config`), relative to
    /// the current directory or absolute.
    public var configPath: String?
    /// Read no config file (`--no-config`).
    public var ignoresConfigFiles: Bool

    public init(enabled: [String] = [], disabled: [String] = [], configPath: String? = nil, ignoresConfigFiles: Bool = false) {
        self.enabled = enabled
        self.disabled = disabled
        self.configPath = configPath
        self.ignoresConfigFiles = ignoresConfigFiles
    }

    /// The config file's settings (`--config`, else the nearest `.devkit.yml` at or above
    /// `currentDirectory`), with `--enable` and `--disable` over them. With a `registry`, an
    /// id the command line names must be one of its rules ("did you mean" otherwise).
    public func configuration(currentDirectory: String, registry: RuleRegistry? = nil) throws(LintConfigurationError) -> LintConfiguration {
        var configuration = LintConfiguration()
        let named = configPath.map { Path.normalize($0.hasPrefix("/") ? $0 : currentDirectory + "/" + $0) }
        if !ignoresConfigFiles, let path = named ?? LintConfigFile.find(from: currentDirectory) {
            configuration = try LintConfigFile.load(path)
        }
        if let registry {
            for id in enabled + disabled where registry.rule(id: id) == nil { throw registry.unknownRule(id) }
        }
        configuration.apply(enable: enabled, disable: disabled)
        return configuration
    }
}
