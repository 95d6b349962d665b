import LintConfigFile
import LintKit
import Provisioning
import ProvisioningLint
import Testing

/// `--expect`, `--device` and `--warn-days` become options of the rules that read them.
@Suite struct ProvisioningLintSettingsTests {
    @Test func flagsBecomeRuleOptions() throws {
        let settings = ProvisioningLintSettings(selection: RuleSelection(disabled: [InvalidSignature.description.id], ignoresConfigFiles: true),
                                                expectedKind: .appStore, devices: ["00008030-001A2B3C4D5E6F70"], warnDays: 7)
        let configuration = try settings.configuration()
        #expect(configuration.disabledRules == [InvalidSignature.description.id])
        #expect(configuration.ruleOptions[TypeMismatch.description.id]?["expect"] == .string("appstore"))
        #expect(configuration.ruleOptions[GetTaskAllowMismatch.description.id]?["expect"] == .string("appstore"))
        #expect(configuration.ruleOptions[DeviceNotProvisioned.description.id]?["devices"] == .list(["00008030-001A2B3C4D5E6F70"]))
        #expect(configuration.ruleOptions[ExpiringProfile.description.id]?["warn-days"] == .integer(7))
        #expect(configuration.ruleOptions[ExpiringCertificate.description.id]?["warn-days"] == .integer(7))
    }

    @Test func noFlagsNoOptions() throws {
        let configuration = try ProvisioningLintSettings(selection: RuleSelection(ignoresConfigFiles: true)).configuration()
        #expect(configuration.ruleOptions.isEmpty)
    }
}
