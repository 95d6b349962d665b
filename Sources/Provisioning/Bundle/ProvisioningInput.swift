import System
import ObjectFile

/// What a path on the command line holds: a profile, or an app whose profile is embedded.
public enum ProvisioningInput: Sendable {
    case profile(bytes: [UInt8], path: String)
    case app(AppBundle)
    /// A bare Mach-O executable: only its code signature's entitlements can be shown.
    case binary(bytes: [UInt8], path: String)

    /// Directories are `.app` bundles, zip files (`PK\3\4`) are `.ipa` archives, anything
    /// else is read as a profile.
    public static func load(_ path: String) throws(ProvisioningError) -> ProvisioningInput {
        if FileIO.isDirectory(path) { return .app(try AppDirectoryReader.read(path)) }
        if path.lowercased().hasSuffix(".ipa") { return .app(try IPAReader.read(path)) }
        // A zip is left unread here: IPAReader maps it.
        let read: [UInt8]?
        do { read = try FileIO.read(path, unlessPrefix: 4, matches: { $0 == [0x50, 0x4b, 0x03, 0x04] }) } catch {
            throw ProvisioningError(file: path, message: error.reason)
        }
        guard let bytes = read else { return .app(try IPAReader.read(path)) }
        if MachOFile.isMachO(bytes) { return .binary(bytes: bytes, path: path) }
        return .profile(bytes: bytes, path: path)
    }

    /// The profile's bytes and its name for messages; an app without one is an error.
    public func profileBytes() throws(ProvisioningError) -> (bytes: [UInt8], source: String) {
        switch self {
        case .profile(let bytes, let path): return (bytes, path)
        case .app(let app):
            guard let bytes = app.embeddedProfile else {
                throw ProvisioningError(file: app.location, message: "the app has no embedded provisioning profile (\(app.embeddedProfileLocation))")
            }
            return (bytes, app.embeddedProfileLocation)
        case .binary(_, let path):
            throw ProvisioningError(file: path, message: "a Mach-O binary has no provisioning profile; name its .app or .ipa")
        }
    }

    /// The profile, read and its signature checked against `trustRoots`, with its name for
    /// messages; errors name the profile.
    public func signedProfile(trustRoots: TrustRoots?) throws(ProvisioningError) -> (profile: SignedProfile, source: String) {
        let (bytes, source) = try profileBytes()
        do { return (try ProfileReader.read(bytes, trustRoots: trustRoots), source) } catch { throw error.inFile(source) }
    }

    /// An app's executable's entitlements (nil: not an app, no executable, or none signed in);
    /// errors name the executable.
    public func appBinaryEntitlements() throws(ProvisioningError) -> BinaryEntitlements? {
        guard let app, let executable = app.executable else { return nil }
        do { return try BinaryEntitlements.read(executable) } catch {
            throw error.inFile("\(app.location)/\(app.executableName ?? "")")
        }
    }

    public var app: AppBundle? {
        if case .app(let app) = self { return app }
        return nil
    }
}
