import LintKit
import PropertyList

/// Entitlement keys are ones Apple defines (with a "did you mean" for near misses).
public struct UnknownEntitlement: LintRule {
    /// Entitlement keys from Apple's Entitlements reference (iOS, macOS, watchOS, tvOS).
    static let known: [String] = [
        "application-identifier", "com.apple.application-identifier", "com.apple.developer.team-identifier",
        "get-task-allow", "keychain-access-groups", "aps-environment", "com.apple.developer.aps-environment",
        "beta-reports-active", "com.apple.developer.associated-domains", "com.apple.developer.associated-domains.mdm-managed",
        "com.apple.developer.applesignin", "com.apple.developer.authentication-services.autofill-credential-provider",
        "com.apple.developer.icloud-container-identifiers", "com.apple.developer.icloud-container-environment",
        "com.apple.developer.icloud-container-development-container-identifiers", "com.apple.developer.icloud-services",
        "com.apple.developer.ubiquity-container-identifiers", "com.apple.developer.ubiquity-kvstore-identifier",
        "com.apple.security.application-groups", "com.apple.developer.healthkit", "com.apple.developer.healthkit.access",
        "com.apple.developer.healthkit.background-delivery", "com.apple.developer.homekit", "com.apple.developer.in-app-payments",
        "com.apple.developer.pass-type-identifiers", "com.apple.developer.siri", "com.apple.developer.networking.wifi-info",
        "com.apple.developer.networking.networkextension", "com.apple.developer.networking.vpn.api",
        "com.apple.developer.networking.HotspotConfiguration", "com.apple.developer.networking.multipath",
        "com.apple.developer.nfc.readersession.formats", "com.apple.developer.default-data-protection",
        "com.apple.developer.game-center", "com.apple.developer.usernotifications.time-sensitive",
        "com.apple.developer.usernotifications.communication", "com.apple.developer.usernotifications.critical-alerts",
        "com.apple.developer.ClassKit-environment", "com.apple.developer.carplay-audio", "com.apple.developer.carplay-navigation",
        "com.apple.developer.devicecheck.appattest-environment", "com.apple.developer.kernel.increased-memory-limit",
        "com.apple.developer.kernel.extended-virtual-addressing", "com.apple.developer.family-controls",
        "com.apple.developer.weatherkit", "com.apple.developer.shazamkit", "com.apple.developer.group-session",
        "com.apple.developer.push-to-talk", "com.apple.developer.contacts.notes", "com.apple.developer.maps",
        "com.apple.developer.user-fonts", "com.apple.developer.fileprovider.testing-mode",
        "com.apple.developer.on-demand-install-capable", "com.apple.developer.parent-application-identifiers",
        "com.apple.developer.playable-content", "com.apple.developer.coreml.neural-engine-access",
        "com.apple.developer.device-information.user-assigned-device-name", "com.apple.developer.web-browser",
        "com.apple.developer.mail-client", "com.apple.developer.matter.allow-setup-payload",
        "com.apple.developer.proximity-reader.payment.acceptance", "com.apple.external-accessory.wireless-configuration",
        "com.apple.developer.associated-appclip-app-identifiers", "com.apple.developer.sustained-execution",
        "com.apple.security.app-sandbox", "com.apple.security.network.client", "com.apple.security.network.server",
        "com.apple.security.files.user-selected.read-only", "com.apple.security.files.user-selected.read-write",
        "com.apple.security.files.downloads.read-write", "com.apple.security.files.bookmarks.app-scope",
        "com.apple.security.device.camera", "com.apple.security.device.audio-input", "com.apple.security.device.usb",
        "com.apple.security.device.bluetooth", "com.apple.security.personal-information.location",
        "com.apple.security.personal-information.addressbook", "com.apple.security.personal-information.calendars",
        "com.apple.security.personal-information.photos-library", "com.apple.security.print",
        "com.apple.security.cs.allow-jit", "com.apple.security.cs.allow-unsigned-executable-memory",
        "com.apple.security.cs.allow-dyld-environment-variables", "com.apple.security.cs.disable-library-validation",
        "com.apple.security.cs.disable-executable-page-protection", "com.apple.security.cs.debugger",
        "com.apple.security.automation.apple-events", "com.apple.security.get-task-allow", "com.apple.security.inherit",
        "com.apple.developer.endpoint-security.client", "com.apple.developer.system-extension.install",
        "com.apple.developer.driverkit", "com.apple.developer.hypervisor", "com.apple.security.hypervisor",
        "com.apple.security.virtualization",
    ]
    static let knownSet = Set(known)

    public static let description = RuleDescription(
        id: "entitlements.unknown-key", category: .entitlements, severity: .warning,
        summary: "Entitlement keys are ones Apple defines; near misses get a \"did you mean\".",
        rationale: """
            A misspelled entitlement is not granted: the capability it was meant to enable \
            (associated domains, app groups, iCloud) just does not work, with no build error; \
            if it does reach the signature, it does not match the provisioning profile and \
            signing or installation fails. Extra known keys can be listed in the rule's \
            known_keys option.
            """,
        kinds: [.entitlements],
        options: [RuleOption("known_keys", default: .list([]), "additional entitlement keys to accept")],
        triggering: [RuleExample("↓<key>com.apple.developer.associated-domain</key>\n<array>\n\t<string>applinks:example.com</string>\n</array>")],
        nonTriggering: [
            RuleExample("<key>com.apple.developer.associated-domains</key>\n<array>\n\t<string>applinks:example.com</string>\n</array>"),
            RuleExample("<key>com.example.custom</key>\n<true/>", ruleOptions: ["known_keys": .list(["com.example.custom"])]),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let entries = file.value.dictionaryEntries else { return }
        let extra = Set(context.listOption("known_keys", default: []))
        for (key, _) in entries where !Self.knownSet.contains(key) && !extra.contains(key) {
            let hint = EditDistance.closest(to: key, in: Self.known).map { "; did you mean \"\($0)\"?" } ?? ""
            context.report("unknown entitlement \"\(key)\"\(hint)", key: key)
        }
    }
}
