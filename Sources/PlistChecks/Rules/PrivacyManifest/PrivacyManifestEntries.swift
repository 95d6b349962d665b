import LintKit
import PropertyList

/// The parts of a privacy manifest the privacy rules walk, with their key paths. Values of
/// the wrong type are skipped here: `privacy.value-type` reports them, once.
enum PrivacyManifestEntries {
    /// The dictionaries of the root's array `key` (`NSPrivacyCollectedDataTypes`,
    /// `NSPrivacyAccessedAPITypes`).
    static func dictionaries(_ file: LintFile, _ key: String) -> [(path: [String], entry: PlistValue)] {
        guard let items = file[key]?.arrayValue else { return [] }
        return items.enumerated().compactMap { index, item in
            item.dictionaryEntries == nil ? nil : ([key, String(index)], item)
        }
    }

    /// The strings of the array at `key` of `entry` (at `path`).
    static func strings(_ entry: PlistValue, _ key: String, at path: [String]) -> [(path: [String], text: String)] {
        guard let items = entry[key: key]?.arrayValue else { return [] }
        return items.enumerated().compactMap { index, item in
            item.stringValue.map { (path + [key, String(index)], $0) }
        }
    }

    /// The hint for an unknown name: the nearest of `known`, if any is near.
    static func hint(_ name: String, _ known: [String]) -> String {
        EditDistance.closest(to: name, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
    }
}
