import System
import PropertyList

/// Reads `.app` directories.
public enum AppDirectoryReader {
    public static func read(_ path: String) throws(ProvisioningError) -> AppBundle {
        let app = path.hasSuffix("/") ? String(path.dropLast()) : path
        // iOS bundles are flat; macOS ones keep everything under Contents/.
        let macOS = FileIO.isDirectory(app + "/Contents")
        let root = macOS ? app + "/Contents/" : app + "/"
        let infoPath = root + "Info.plist"
        let info: PlistValue, infoBytes: [UInt8]
        do {
            infoBytes = try FileIO.read(infoPath, kind: .propertyList)
            info = try PropertyListCoding.read(infoBytes).value
        } catch let error as FileIOError {
            throw ProvisioningError(file: infoPath, message: "cannot read the app's Info.plist: \(error.reason)")
        } catch let error as PlistError {
            throw ProvisioningError(file: infoPath, position: error.position, message: error.message)
        } catch {
            throw ProvisioningError(file: infoPath, message: "\(error)")
        }
        let profilePath = root + (macOS ? "embedded.provisionprofile" : "embedded.mobileprovision")
        var bundle = AppBundle(location: app, infoPlist: info, infoPlistBytes: infoBytes,
                               embeddedProfile: try readIfPresent(profilePath, kind: .profile, what: "the embedded profile"),
                               embeddedProfileLocation: profilePath, executable: nil)
        if let name = bundle.executableName, !name.contains("/") {
            bundle.executable = try readIfPresent(root + (macOS ? "MacOS/" : "") + name, kind: .general, what: "the app's executable")
        }
        return bundle
    }

    /// The file's bytes, or nil when there is no such file; a file that is there but cannot
    /// be read (a FIFO, a device, over its cap) is an error, not an absent file.
    private static func readIfPresent(_ path: String, kind: InputFile.Kind, what: String) throws(ProvisioningError) -> [UInt8]? {
        do { return try FileIO.read(path, kind: kind) } catch {
            if error.isFileNotFound { return nil }
            throw ProvisioningError(file: path, message: "cannot read \(what): \(error.reason)")
        }
    }
}
