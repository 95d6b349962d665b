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
            infoBytes = try FileIO.read(infoPath)
            info = try PropertyListCoding.read(infoBytes).value
        } catch let error as FileIOError {
            throw ProvisioningError(file: infoPath, message: "cannot read the app's Info.plist: \(error.reason)")
        } catch let error as PlistError {
            throw ProvisioningError(file: infoPath, position: error.position, message: error.message)
        } catch {
            throw ProvisioningError(file: infoPath, message: "\(error)")
        }
        let profilePath = root + (macOS ? "embedded.provisionprofile" : "embedded.mobileprovision")
        var bundle = AppBundle(location: app, infoPlist: info, infoPlistBytes: infoBytes, embeddedProfile: try? FileIO.read(profilePath), embeddedProfileLocation: profilePath, executable: nil)
        if let name = bundle.executableName, !name.contains("/") {
            bundle.executable = try? FileIO.read(root + (macOS ? "MacOS/" : "") + name)
        }
        return bundle
    }
}
