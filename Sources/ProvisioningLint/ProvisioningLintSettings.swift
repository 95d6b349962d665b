import System
import LintConfigFile
import LintKit
import Provisioning

/// The settings of a `devkit provision lint` run: the config file and `--enable`/`--disable`,
/// then the flags that are rule options (`--expect`, `--device`, `--warn-days`) over them.
public struct ProvisioningLintSettings: Sendable {
    /// Which rules run, from which config file.
    public var selection: RuleSelection
    /// `--expect`: the intended profile type.
    public var expectedKind: ProfileKind?
    /// `--device`: UDIDs that must be provisioned.
    public var devices: [String]
    /// `--warn-days`: how early an expiry is reported.
    public var warnDays: Int?

    public init(selection: RuleSelection = RuleSelection(), expectedKind: ProfileKind? = nil, devices: [String] = [], warnDays: Int? = nil) {
        self.selection = selection
        self.expectedKind = expectedKind
        self.devices = devices
        self.warnDays = warnDays
    }

    /// The nearest .devkit.yml (from the current directory), then the command line over it.
    public func configuration() throws(LintConfigurationError) -> LintConfiguration {
        var configuration = try selection.configuration(currentDirectory: DirectoryWalk.currentDirectory())
        if let expectedKind {
            configuration.ruleOptions[TypeMismatch.description.id, default: [:]]["expect"] = .string(expectedKind.rawValue)
            configuration.ruleOptions[GetTaskAllowMismatch.description.id, default: [:]]["expect"] = .string(expectedKind.rawValue)
        }
        if !devices.isEmpty { configuration.ruleOptions[DeviceNotProvisioned.description.id, default: [:]]["devices"] = .list(devices) }
        for rule in [ExpiringProfile.description.id, ExpiringCertificate.description.id] {
            if let warnDays { configuration.ruleOptions[rule, default: [:]]["warn-days"] = .integer(warnDays) }
        }
        return configuration
    }
}
