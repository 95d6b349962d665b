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
