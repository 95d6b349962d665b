import LintKit
import PropertyList

/// Each accessed-API entry names one of the five required-reason categories, once.
///
/// Triggers on an `NSPrivacyAccessedAPITypes` entry without `NSPrivacyAccessedAPIType`, on a
/// category Apple does not list (with a "did you mean"), and on a category declared in two
/// entries.
public struct PrivacyAccessedAPICategory: LintRule {
    static var categoryNames: [String] { PrivacyCatalog.apiCategories.map(\.name) }

    public static let description = RuleDescription(
        id: "privacy.accessed-api-category", category: .privacy, severity: .error,
        summary: "Each NSPrivacyAccessedAPITypes entry names a required-reason category from Apple's list, once.",
        rationale: """
            An app or SDK that uses a required-reason API (file timestamps, system boot time, \
            disk space, active keyboards, user defaults) must declare its category; a \
            misspelled category (NSPrivacyAccessedAPICategoryUserDefault) is refused at upload \
            (ITMS-91054, invalid API category) and leaves the use undeclared (ITMS-91053). \
            Two entries for one category are reported as a rejection cause; merge their reasons.
            """,
        kinds: [.privacyManifest],
        triggering: [
            RuleExample("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \t<dict>
                \t\t↓<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryUserDefault</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<array><string>CA92.1</string></array>
                \t</dict>
                \t↓<dict>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<array><string>35F9.1</string></array>
                \t</dict>
                </array>
                """),
            RuleExample("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryDiskSpace</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<array><string>E174.1</string></array>
                \t</dict>
                \t<dict>
                \t\t↓<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryDiskSpace</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<array><string>85F4.1</string></array>
                \t</dict>
                </array>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryDiskSpace</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<array><string>E174.1</string><string>85F4.1</string></array>
                \t</dict>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryActiveKeyboards</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<array><string>54BD.1</string></array>
                \t</dict>
                </array>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        var seen = Set<String>()
        for (path, entry) in PrivacyManifestEntries.dictionaries(file, "NSPrivacyAccessedAPITypes") {
            guard let value = entry[key: "NSPrivacyAccessedAPIType"] else {
                context.report("NSPrivacyAccessedAPITypes entry has no NSPrivacyAccessedAPIType; name the category its reasons are for", at: KeyPath(path))
                continue
            }
            guard let name = value.stringValue else { continue }
            let categoryPath = KeyPath(path + ["NSPrivacyAccessedAPIType"])
            if PrivacyCatalog.category(named: name) == nil {
                context.report("unknown required-reason API category \"\(name)\"\(PrivacyManifestEntries.hint(name, Self.categoryNames)) (ITMS-91054)", at: categoryPath)
            } else if !seen.insert(name).inserted {
                context.report("\(name) is declared in two entries; list all its reasons in one", at: categoryPath)
            }
        }
    }
}
