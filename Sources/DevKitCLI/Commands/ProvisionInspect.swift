import ArgumentParser
import Provisioning

extension Provision {
    struct ProvisionInspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Show what provisioning profiles hold and whether their signature holds.",
            discussion: """
                Reads .mobileprovision and .provisionprofile files (CMS SignedData, DER or BER), \
                .app directories and .ipa archives (their embedded.mobileprovision and the \
                binary's entitlements), and bare Mach-O binaries (their entitlements). The signature \
                is always checked: a modified profile is an error (exit 2). Without --trust-roots \
                the signer chain is shown but not verified.

                Examples:
                  devkit provision inspect App.mobileprovision
                  devkit provision inspect --devices --entitlements build/App.ipa
                  devkit provision inspect --format json --trust-roots apple-roots/ *.mobileprovision
                """
        )

        @Argument(help: "Profiles, .app directories or .ipa archives.")
        var files: [String]

        @Option(name: .long, help: "Output format (text|json).")
        var format: DescribeFormat = .text

        @Flag(name: .long, help: "List the provisioned device UDIDs.")
        var devices = false

        @Flag(name: .long, help: "Print the entitlements the profile grants.")
        var entitlements = false

        @OptionGroup var options: ProvisionOptions

        func run() throws {
            let report = ProfileReport(now: options.instant, listsDevices: devices, listsEntitlements: entitlements)
            let inspector = ProfileInspector(report: report, trustRoots: try options.trustRoots())
            let (found, errors) = inspector.inspect(files)
            for error in errors { FileHandleOutput.standardError(error + "\n") }
            switch format {
            case .text: try FileHandleOutput.standardOutput(found.map(inspector.text).joined(separator: "\n"))
            case .json: try FileHandleOutput.standardOutput(try inspector.json(found))
            }
            if !errors.isEmpty { throw CommandFailure(message: "", exitCode: 2) }
        }
    }
}
