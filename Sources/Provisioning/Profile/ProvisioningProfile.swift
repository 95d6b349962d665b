import OrderedCollections
import PropertyList

/// A provisioning profile's payload (the signed plist), with the fields people check.
public struct ProvisioningProfile: Sendable {
    public var name: String
    public var appIDName: String?
    public var uuid: String
    public var teamName: String?
    public var teamIdentifiers: [String]
    public var applicationIdentifierPrefixes: [String]
    public var platforms: [String]
    public var creationDate: PlistDate?
    public var expirationDate: PlistDate
    /// `TimeToLive`, in days.
    public var timeToLive: Int64?
    /// `Entitlements`: the entitlements the profile grants (a dictionary).
    public var entitlements: OrderedDictionary<String, PlistValue>
    public var provisionedDevices: [String]
    public var provisionsAllDevices: Bool
    public var developerCertificates: [DeveloperCertificate]
    /// The whole payload, for fields the model does not name.
    public var payload: PlistValue

    /// `application-identifier` (iOS) or `com.apple.application-identifier` (macOS), e.g.
    /// `ABCDE12345.com.example.app` or `ABCDE12345.*`.
    public var applicationIdentifier: String? {
        for key in ["application-identifier", "com.apple.application-identifier"] {
            if case .string(let value)? = entitlements[key] { return value }
        }
        return nil
    }

    /// `get-task-allow` (iOS) or `com.apple.security.get-task-allow` (macOS); nil when absent.
    public var getTaskAllow: Bool? {
        for key in ["get-task-allow", "com.apple.security.get-task-allow"] {
            if case .bool(let value)? = entitlements[key] { return value }
        }
        return nil
    }

    /// The distribution type, from the devices and `get-task-allow` (see `ProfileKind`).
    public var kind: ProfileKind {
        if provisionsAllDevices { return .enterprise }
        if !provisionedDevices.isEmpty {
            // macOS profiles carry no get-task-allow, and macOS has no ad hoc distribution: a
            // Mac profile listing devices is a development profile.
            let macOnly = !platforms.isEmpty && platforms.allSatisfy { $0 == "OSX" || $0 == "macOS" }
            return getTaskAllow == true || (getTaskAllow == nil && macOnly) ? .development : .adHoc
        }
        return .appStore
    }

    /// The application identifier without the team prefix (`com.example.app`, `*`).
    public var bundleIdentifierPattern: String? {
        guard let identifier = applicationIdentifier, let dot = identifier.firstIndex(of: ".") else { return nil }
        return String(identifier[identifier.index(after: dot)...])
    }

    /// Whole days from `now` to expiry; negative once expired.
    public func daysUntilExpiry(at now: PlistDate) -> Int {
        let seconds = expirationDate.secondsSinceReferenceDate - now.secondsSinceReferenceDate
        return Int((seconds / 86_400).rounded(.down))
    }

    public func isExpired(at now: PlistDate) -> Bool { expirationDate <= now }
}
