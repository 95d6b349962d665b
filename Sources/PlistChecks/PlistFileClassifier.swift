import LintKit
import PropertyList

/// The plist pack's kinds: `Info.plist`, entitlements, privacy manifests and OTA manifests
/// and String Catalogs besides any plist and `.strings` file.
public struct PlistFileClassifier: FileClassifier {
    public init() {}

    public var kinds: Set<FileKind> { FileKind.all }

    public func kind(forName path: String) -> FileKind? {
        if nameEnds(path, with: "Info.plist") { return .infoPlist }
        if nameEnds(path, with: ".entitlements") || nameEnds(path, with: ".xcent") { return .entitlements }
        if nameEnds(path, with: ".xcprivacy") { return .privacyManifest }
        if nameEnds(path, with: ".xcstrings") { return .stringCatalog }
        return PropertyListFiles().kind(forName: path)
    }

    /// A String Catalog is JSON (Xcode writes nothing else), so an `.xcstrings` file in another
    /// format is a syntax error naming where JSON stops, not a plist linted by other rules.
    public func format(of kind: FileKind) -> PlistFormat? { kind == .stringCatalog ? .json : nil }

    /// A generic plist whose `items` is an array of dictionaries holding `assets` is an OTA
    /// manifest (they are often named `manifest.plist`).
    public func refine(_ kind: FileKind, value: PlistValue) -> FileKind {
        guard kind == .propertyList, let items = value[key: "items"]?.arrayValue,
              items.contains(where: { $0[key: "assets"] != nil }) else { return kind }
        return .otaManifest
    }
}
