import ArgumentParser
import Provisioning

extension Provision {
    struct ProvisionManifest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "manifest",
            abstract: "Write an over-the-air install manifest (manifest.plist) and index.html for an .ipa.",
            discussion: """
                Reads the app's bundle identifier, version and name from the .ipa and writes \
                DIR/manifest.plist and DIR/index.html (with the itms-services:// link), \
                atomically. Every URL must be https: iOS refuses anything else. The manifest is \
                expected at --manifest-url, by default manifest.plist beside the .ipa's URL.

                Example:
                  devkit provision manifest --ipa build/App.ipa --url https://example.com/beta/App.ipa -o public/
                """
        )

        @Option(help: ArgumentHelp("The .ipa to describe.", valueName: "file"))
        var ipa: String

        @Option(help: ArgumentHelp("Where the .ipa will be served (https).", valueName: "URL"))
        var url: String

        @Option(name: .customLong("manifest-url"), help: ArgumentHelp("Where manifest.plist will be served (https; default: beside --url).", valueName: "URL"))
        var manifestURL: String?

        @Option(name: .customLong("display-image"), help: ArgumentHelp("57×57 PNG shown while installing (https).", valueName: "URL"))
        var displayImage: String?

        @Option(name: .customLong("full-size-image"), help: ArgumentHelp("512×512 PNG (https).", valueName: "URL"))
        var fullSizeImage: String?

        @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Directory to write into (it must exist).", valueName: "DIR"))
        var output: String = "."

        func run() throws {
            do {
                let manifest = try OTAManifest(ipa: ipa, ipaURL: url, manifestURL: manifestURL, displayImageURL: displayImage, fullSizeImageURL: fullSizeImage)
                let directory = try manifest.write(into: output)
                try FileHandleOutput.standardOutput("wrote \(directory)manifest.plist and \(directory)index.html\n\(manifest.installLink)\n")
            } catch let error as ProvisioningError {
                throw CommandFailure.input(error.description)
            }
        }
    }
}
