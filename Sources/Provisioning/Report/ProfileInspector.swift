import Diagnostics
import PlistTools
import PropertyList

/// `devkit provision inspect` below its command line: reads each path (a profile, an `.app`,
/// an `.ipa` or a bare Mach-O binary), checks the profile's signature, and renders what it
/// found through `ProfileReport`.
public struct ProfileInspector: Sendable {
    public var report: ProfileReport
    /// Roots to verify the signer chain against (nil: the chain is shown, not verified).
    public var trustRoots: TrustRoots?

    public init(report: ProfileReport, trustRoots: TrustRoots?) {
        self.report = report
        self.trustRoots = trustRoots
    }

    /// What one path held.
    public enum Inspected: Sendable {
        /// A profile (alone, or embedded in an app, with the app's binary entitlements).
        case profile(SignedProfile, source: String, app: AppBundle?, binary: BinaryEntitlements?)
        /// A bare Mach-O binary's entitlements (nil when it has none).
        case binary(BinaryEntitlements?, source: String)
    }

    /// What each path held, in order, and one `file: error: …` line for each path that could
    /// not be read.
    public func inspect(_ paths: [String]) -> (found: [Inspected], errors: [String]) {
        var found: [Inspected] = [], errors: [String] = []
        for path in paths {
            do { found.append(try inspect(path)) } catch { errors.append(error.description) }
        }
        return (found, errors)
    }

    /// The profile in `path` (a profile, an `.app` or an `.ipa`), signature-checked: a profile
    /// whose digest or signature fails is an error here. A Mach-O file gives its entitlements.
    public func inspect(_ path: String) throws(ProvisioningError) -> Inspected {
        let input = try ProvisioningInput.load(path)
        if case .binary(let bytes, _) = input {
            do { return .binary(try BinaryEntitlements.read(bytes), source: path) } catch { throw error.inFile(path) }
        }
        let (signed, source) = try input.signedProfile(trustRoots: trustRoots)
        if let failure = signed.signature.failure {
            throw ProvisioningError(file: source, message: "signature check failed: \(failure)")
        }
        return .profile(signed, source: source, app: input.app, binary: try input.appBinaryEntitlements())
    }

    /// The readable summary of what a path held, control characters from the input escaped
    /// (`TerminalText`).
    public func text(_ inspected: Inspected) -> String {
        let text = switch inspected {
        case .binary(let entitlements, let source): report.text(binary: entitlements, source: source)
        case .profile(let signed, let source, let app, let binary): report.text(signed, source: source, app: app, binary: binary)
        }
        return TerminalText.escapedKeepingLines(text)
    }

    /// What a path held, as the property-list value the provisioning rules check.
    public func value(_ inspected: Inspected) -> PlistValue {
        switch inspected {
        case .binary(let entitlements, let source): report.value(binary: entitlements, source: source)
        case .profile(let signed, let source, let app, let binary): report.value(signed, source: source, app: app, binary: binary)
        }
    }

    /// What the paths held, as one pretty-printed JSON array of their values.
    ///
    /// Written by the property-list JSON writer rather than `JSONWriter`: each value is the
    /// rules' subject, a property list, and the entitlements in it are whatever the profile or
    /// binary holds, so their data, dates and UIDs are spelled (or refused, as an error naming
    /// `report`) as `devkit plist convert` spells them.
    public func json(_ found: [Inspected]) throws(PlistFileError) -> [UInt8] {
        try PlistFile.serialize(.array(found.map(value)), as: .json, source: "report")
    }
}
