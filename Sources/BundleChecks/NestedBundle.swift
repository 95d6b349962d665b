/// A bundle inside (or being) an app: the app itself, a framework or an extension, with the
/// Mach-O files its privacy manifest speaks for.
public struct NestedBundle: Sendable, Equatable {
    public enum Kind: String, Sendable { case app, framework, appExtension = "extension" }

    /// The bundle directory (`App.app/Frameworks/Alamofire.framework`).
    public var path: String
    /// The directory name without its extension (`Alamofire`).
    public var name: String
    public var kind: Kind
    /// Its executable, and for the app the loose dylibs of `Frameworks/` (they have no
    /// bundle, so the app's manifest covers them).
    public var binaries: [String]
    /// `PrivacyInfo.xcprivacy` when the bundle has one.
    public var privacyManifest: String?
    /// Where its Info.plist is (it may be missing).
    public var infoPlist: String
}
