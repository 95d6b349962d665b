import LintKit
import PropertyList

/// The devices the build must run on (`--device`) must be in the profile.
///
/// Triggers for each UDID in the option `devices` that is not in `ProvisionedDevices`,
/// unless the profile provisions all devices.
public struct DeviceNotProvisioned: LintRule {
    public static let description = RuleDescription(
        id: "profile.device-not-provisioned", category: .provisioning, severity: .error,
        summary: "Each device given with --device must be provisioned by the profile.",
        rationale: """
            Installing on a device missing from ProvisionedDevices fails with "A valid \
            provisioning profile for this executable was not found"; the usual cause is a \
            tester's device registered after the profile was generated.
            """,
        kinds: [.provisioningProfile],
        options: [RuleOption("devices", default: .list([]), "UDIDs that must be provisioned.")],
        triggering: [
            RuleExample("↓<key>provisionedDevices</key>\n<array>\n<string>00008030-001A2B3C4D5E6F70</string>\n</array>",
                        ruleOptions: ["devices": .list(["00008110-000C25E601C2801E"])])
        ],
        nonTriggering: [
            RuleExample("<key>provisionedDevices</key>\n<array>\n<string>00008030-001A2B3C4D5E6F70</string>\n</array>",
                        ruleOptions: ["devices": .list(["00008030-001a2b3c4d5e6f70"])]),
            RuleExample("<key>provisionsAllDevices</key>\n<true/>\n<key>provisionedDevices</key>\n<array/>",
                        ruleOptions: ["devices": .list(["00008110-000C25E601C2801E"])]),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard file["provisionsAllDevices"]?.bool != true, file["provisionedDevices"] != nil else { return }
        // UDIDs are hex: compare without case.
        let provisioned = Set((file["provisionedDevices"]?.arrayValue ?? []).compactMap { $0.stringValue?.lowercased() })
        for device in context.listOption("devices", default: []) where !provisioned.contains(device.lowercased()) {
            context.report(Self.missing(device, count: provisioned.count, type: file["type"]?.stringValue ?? ""), key: "provisionedDevices")
        }
    }

    private static func missing(_ device: String, count: Int, type: String) -> String {
        if count == 0 { return "device \(device) is not provisioned: \(ProvisioningWording.profileType(type)) lists no devices" }
        return "device \(device) is not among the profile's \(count) provisioned devices"
    }
}
