import ArgumentParser

/// `devkit provision …`: provisioning profiles, signed apps and over-the-air manifests.
struct Provision: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provision",
        abstract: "Inspect and check provisioning profiles, .app bundles and .ipa archives.",
        subcommands: [ProvisionInspect.self, ProvisionLint.self, ProvisionManifest.self]
    )
}
