import System
import PropertyList

/// The parts of an app bundle that provisioning checks need, read from an `.app` directory
/// or from inside an `.ipa`.
public struct AppBundle: Sendable {
    /// How to name the bundle in messages (`App.ipa!Payload/App.app`).
    public var location: String
    public var infoPlist: PlistValue
    /// The Info.plist's bytes as stored (for lint rules that point at lines).
    public var infoPlistBytes: [UInt8]
    /// `embedded.mobileprovision` (iOS) or `Contents/embedded.provisionprofile` (macOS) bytes.
    public var embeddedProfile: [UInt8]?
    /// Where the profile is, for messages.
    public var embeddedProfileLocation: String
    /// The main executable's bytes (`CFBundleExecutable`), when present.
    public var executable: [UInt8]?

    func info(_ key: String) -> String? {
        if case .dictionary(let d) = infoPlist, case .string(let s)? = d[key] { return s }
        return nil
    }

    public var bundleIdentifier: String? { info("CFBundleIdentifier") }
    public var executableName: String? { info("CFBundleExecutable") }
    public var shortVersion: String? { info("CFBundleShortVersionString") }
    public var bundleVersion: String? { info("CFBundleVersion") }
    /// `CFBundleDisplayName`, else `CFBundleName`.
    public var displayName: String? { info("CFBundleDisplayName") ?? info("CFBundleName") }
}

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
