import System
import PropertyList

extension OTAManifest {
    /// The manifest for the `.ipa` at `ipa`, its metadata taken from the app's Info.plist.
    public init(ipa: String, ipaURL: String, manifestURL: String?, displayImageURL: String?, fullSizeImageURL: String?) throws(ProvisioningError) {
        try self.init(app: try IPAReader.read(ipa), ipaURL: ipaURL, manifestURL: manifestURL,
                      displayImageURL: displayImageURL, fullSizeImageURL: fullSizeImageURL)
    }

    /// Writes `manifest.plist` and `index.html` into `directory` (it must exist), each
    /// atomically; returns the directory with a trailing `/`.
    public func write(into directory: String) throws(ProvisioningError) -> String {
        guard FileIO.isDirectory(directory) else { throw ProvisioningError(file: directory, message: "not a directory (-o)") }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        let format = PlistFormat.xml
        let bytes: [UInt8]
        do { bytes = try PropertyListCoding.write(plist, as: format) } catch {
            throw ProvisioningError(file: "manifest", message: "cannot write as \(format): \(error.message)")
        }
        do {
            try FileIO.writeAtomically(bytes, to: prefix + "manifest.plist")
            try FileIO.writeAtomically(Array(html.utf8), to: prefix + "index.html")
        } catch {
            throw ProvisioningError(file: error.path, message: error.reason)
        }
        return prefix
    }
}
