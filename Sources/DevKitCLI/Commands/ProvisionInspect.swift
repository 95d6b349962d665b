import ArgumentParser
import PropertyList
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
            let roots = try options.trustRoots()
            let report = ProfileReport(now: options.instant, listsDevices: devices, listsEntitlements: entitlements)
            var texts: [String] = [], values: [PlistValue] = [], failed = false
            for file in files {
                do {
                    switch try ProfileInputs.inspect(file, trustRoots: roots) {
                    case .binary(let entitlements):
                        texts.append(report.text(binary: entitlements, source: file))
                        values.append(report.value(binary: entitlements, source: file))
                    case .profile(let signed):
                        texts.append(report.text(signed.profile, source: signed.source, app: signed.app, binary: signed.binary))
                        values.append(report.value(signed.profile, source: signed.source, app: signed.app, binary: signed.binary))
                    }
                } catch {
                    FileHandleOutput.standardError(error.message + "\n")
                    failed = true
                }
            }
            switch format {
            case .text: try FileHandleOutput.standardOutput(texts.joined(separator: "\n"))
            case .json: try FileHandleOutput.standardOutput(try PlistLoader.serialize(.array(values), as: .json, source: "report"))
            }
            if failed { throw CommandFailure(message: "", exitCode: 2) }
        }
    }
}
