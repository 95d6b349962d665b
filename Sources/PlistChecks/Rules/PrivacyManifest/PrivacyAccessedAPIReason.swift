import LintKit
import PropertyList

/// Each accessed-API entry gives at least one reason, each approved for its category, once.
///
/// Triggers on a missing or empty `NSPrivacyAccessedAPITypeReasons`, on a reason code that
/// belongs to another category or to none, and on a code given twice in one entry.
public struct PrivacyAccessedAPIReason: LintRule {
    public static let description = RuleDescription(
        id: "privacy.accessed-api-reason", category: .privacy, severity: .error,
        summary: "NSPrivacyAccessedAPITypeReasons lists approved reason codes of the entry's own category, each once.",
        rationale: """
            Each category has its own approved reasons (CA92.1 is for user defaults, C617.1 \
            for file timestamps); a code of another category, an invented one or none at all \
            is refused at upload (ITMS-91055, invalid API category reason), and the API use \
            stays undeclared (ITMS-91053).
            """,
        kinds: [.privacyManifest],
        triggering: [
            RuleExample("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryFileTimestamp</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<array>
                \t\t\t↓<string>CA92.1</string>
                \t\t\t<string>C617.1</string>
                \t\t\t↓<string>C617.1</string>
                \t\t\t↓<string>C617.2</string>
                \t\t</array>
                \t</dict>
                </array>
                """),
            RuleExample("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategorySystemBootTime</string>
                \t\t↓<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<array/>
                \t</dict>
                \t↓<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryUserDefaults</string>
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
                \t\t<string>NSPrivacyAccessedAPICategoryFileTimestamp</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<array><string>C617.1</string><string>3B52.1</string></array>
                \t</dict>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryUserDefaults</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<array><string>CA92.1</string></array>
                \t</dict>
                </array>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let key = "NSPrivacyAccessedAPITypeReasons"
        for (path, entry) in PrivacyManifestEntries.dictionaries(file, "NSPrivacyAccessedAPITypes") {
            // An entry of an unknown category is privacy.accessed-api-category's finding.
            guard let name = entry[key: "NSPrivacyAccessedAPIType"]?.stringValue, let category = PrivacyCatalog.category(named: name) else { continue }
            switch entry[key: key] {
            case nil:
                context.report("\(name) entry has no \(key); give at least one approved reason (\(category.reasons.joined(separator: ", ")))", at: KeyPath(path))
                continue
            case .array(let items)? where items.isEmpty:
                context.report("\(key) is empty; give at least one approved reason (\(category.reasons.joined(separator: ", ")))", at: KeyPath(path + [key]))
                continue
            default: break
            }
            var seen = Set<String>()
            for (reasonPath, code) in PrivacyManifestEntries.strings(entry, key, at: path) {
                if category.reasons.contains(code) {
                    if !seen.insert(code).inserted { context.report("reason \(code) is listed twice", at: KeyPath(reasonPath)) }
                } else if let other = PrivacyCatalog.category(ofReason: code) {
                    context.report("reason \(code) is for \(other.name), not \(name) (its reasons: \(category.reasons.joined(separator: ", "))) (ITMS-91055)", at: KeyPath(reasonPath))
                } else {
                    context.report("unknown reason code \"\(code)\" for \(name) (its reasons: \(category.reasons.joined(separator: ", "))) (ITMS-91055)", at: KeyPath(reasonPath))
                }
            }
        }
    }
}
