import LintKit
import PropertyList

/// Helpers for the manifest rules: the single item and its assets.
enum OTAManifestFile {
    static func item(_ file: LintFile) -> PlistValue? { file["items"]?.arrayValue?.first }

    /// Each asset with its key path, for those that are dictionaries.
    static func assets(_ file: LintFile) -> [(kind: String?, url: String?, path: KeyPath)] {
        guard let assets = item(file)?[key: "assets"]?.arrayValue else { return [] }
        return assets.enumerated().map { i, asset in
            (asset[key: "kind"]?.stringValue, asset[key: "url"]?.stringValue, KeyPath(["items", "0", "assets", String(i)]))
        }
    }
}
