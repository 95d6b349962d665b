import LintKit
import PropertyList

/// Each collected-data entry names a data type from Apple's list, once, with all four keys.
///
/// Triggers on an `NSPrivacyCollectedDataTypes` entry missing one of its four keys, on a data
/// type Apple does not list (with a "did you mean"), and on a data type declared twice.
public struct PrivacyCollectedDataType: LintRule {
    public static let description = RuleDescription(
        id: "privacy.collected-data-type", category: .privacy, severity: .error,
        summary: "Each NSPrivacyCollectedDataTypes entry has its four keys and a data type from Apple's list, declared once.",
        rationale: """
            Xcode merges the collected-data declarations of the app and its SDKs into the \
            privacy report the App Store's nutrition label is checked against; an entry with \
            an unknown type (NSPrivacyCollectedDataTypePhotosOrVideos: Apple writes "Photosor") \
            or without its linked, tracking or purposes key is refused as an invalid manifest \
            (ITMS-91056). The same type twice usually means two entries that disagree.
            """,
        kinds: [.privacyManifest],
        triggering: [
            RuleExample("""
                <key>NSPrivacyCollectedDataTypes</key>
                <array>
                \t<dict>
                \t\t↓<key>NSPrivacyCollectedDataType</key>
                \t\t<string>NSPrivacyCollectedDataTypePhotosOrVideos</string>
                \t\t<key>NSPrivacyCollectedDataTypeLinked</key>
                \t\t<true/>
                \t\t<key>NSPrivacyCollectedDataTypeTracking</key>
                \t\t<false/>
                \t\t<key>NSPrivacyCollectedDataTypePurposes</key>
                \t\t<array><string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string></array>
                \t</dict>
                \t↓<dict>
                \t\t<key>NSPrivacyCollectedDataType</key>
                \t\t<string>NSPrivacyCollectedDataTypeCrashData</string>
                \t</dict>
                </array>
                """),
            RuleExample("""
                <key>NSPrivacyCollectedDataTypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyCollectedDataType</key>
                \t\t<string>NSPrivacyCollectedDataTypeEmailAddress</string>
                \t\t<key>NSPrivacyCollectedDataTypeLinked</key>
                \t\t<true/>
                \t\t<key>NSPrivacyCollectedDataTypeTracking</key>
                \t\t<false/>
                \t\t<key>NSPrivacyCollectedDataTypePurposes</key>
                \t\t<array><string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string></array>
                \t</dict>
                \t<dict>
                \t\t↓<key>NSPrivacyCollectedDataType</key>
                \t\t<string>NSPrivacyCollectedDataTypeEmailAddress</string>
                \t\t<key>NSPrivacyCollectedDataTypeLinked</key>
                \t\t<true/>
                \t\t<key>NSPrivacyCollectedDataTypeTracking</key>
                \t\t<false/>
                \t\t<key>NSPrivacyCollectedDataTypePurposes</key>
                \t\t<array><string>NSPrivacyCollectedDataTypePurposeAnalytics</string></array>
                \t</dict>
                </array>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>NSPrivacyCollectedDataTypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyCollectedDataType</key>
                \t\t<string>NSPrivacyCollectedDataTypePhotosorVideos</string>
                \t\t<key>NSPrivacyCollectedDataTypeLinked</key>
                \t\t<true/>
                \t\t<key>NSPrivacyCollectedDataTypeTracking</key>
                \t\t<false/>
                \t\t<key>NSPrivacyCollectedDataTypePurposes</key>
                \t\t<array><string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string></array>
                \t</dict>
                </array>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        var seen = Set<String>()
        for (path, entry) in PrivacyManifestEntries.dictionaries(file, "NSPrivacyCollectedDataTypes") {
            let missing = PrivacyCatalog.collectedDataTypeKeys.filter { entry[key: $0] == nil }
            if !missing.isEmpty {
                context.report("NSPrivacyCollectedDataTypes entry has no \(missing.joined(separator: ", ")); each entry needs all four keys", at: KeyPath(path))
            }
            guard let type = entry[key: "NSPrivacyCollectedDataType"]?.stringValue else { continue }
            let typePath = KeyPath(path + ["NSPrivacyCollectedDataType"])
            if !PrivacyCatalog.dataTypes.contains(type) {
                context.report("unknown collected data type \"\(type)\"\(PrivacyManifestEntries.hint(type, PrivacyCatalog.dataTypes))", at: typePath)
            } else if !seen.insert(type).inserted {
                context.report("collected data type \(type) is declared twice; merge the entries", at: typePath)
            }
        }
    }
}
