import LintKit
import PropertyList

/// Each collected-data entry gives at least one purpose, each from Apple's list, once.
///
/// Triggers on an empty `NSPrivacyCollectedDataTypePurposes`, on a purpose Apple does not
/// list (with a "did you mean"), and on a purpose given twice in one entry.
public struct PrivacyCollectedDataPurpose: LintRule {
    public static let description = RuleDescription(
        id: "privacy.collected-data-purpose", category: .privacy, severity: .error,
        summary: "NSPrivacyCollectedDataTypePurposes lists at least one purpose from Apple's list, each once.",
        rationale: """
            The purposes become the "used for" lines of the App Store privacy label; an \
            unknown purpose string (a shortened "Analytics", a misspelling) is refused as an \
            invalid manifest (ITMS-91056) and an empty list declares data collected for no \
            reason, which App Review questions.
            """,
        kinds: [.privacyManifest],
        triggering: [
            RuleExample("""
                <key>NSPrivacyCollectedDataTypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyCollectedDataType</key>
                \t\t<string>NSPrivacyCollectedDataTypeCrashData</string>
                \t\t<key>NSPrivacyCollectedDataTypeLinked</key>
                \t\t<false/>
                \t\t<key>NSPrivacyCollectedDataTypeTracking</key>
                \t\t<false/>
                \t\t<key>NSPrivacyCollectedDataTypePurposes</key>
                \t\t<array>
                \t\t\t↓<string>Analytics</string>
                \t\t\t<string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string>
                \t\t\t↓<string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string>
                \t\t</array>
                \t</dict>
                </array>
                """),
            RuleExample("""
                <key>NSPrivacyCollectedDataTypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyCollectedDataType</key>
                \t\t<string>NSPrivacyCollectedDataTypeCrashData</string>
                \t\t<key>NSPrivacyCollectedDataTypeLinked</key>
                \t\t<false/>
                \t\t<key>NSPrivacyCollectedDataTypeTracking</key>
                \t\t<false/>
                \t\t↓<key>NSPrivacyCollectedDataTypePurposes</key>
                \t\t<array/>
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
                \t\t<string>NSPrivacyCollectedDataTypeCrashData</string>
                \t\t<key>NSPrivacyCollectedDataTypeLinked</key>
                \t\t<false/>
                \t\t<key>NSPrivacyCollectedDataTypeTracking</key>
                \t\t<false/>
                \t\t<key>NSPrivacyCollectedDataTypePurposes</key>
                \t\t<array>
                \t\t\t<string>NSPrivacyCollectedDataTypePurposeAnalytics</string>
                \t\t\t<string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string>
                \t\t</array>
                \t</dict>
                </array>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let key = "NSPrivacyCollectedDataTypePurposes"
        for (path, entry) in PrivacyManifestEntries.dictionaries(file, "NSPrivacyCollectedDataTypes") {
            if entry[key: key]?.arrayValue?.isEmpty == true {
                context.report("\(key) is empty; give at least one purpose", at: KeyPath(path + [key]))
            }
            var seen = Set<String>()
            for (purposePath, purpose) in PrivacyManifestEntries.strings(entry, key, at: path) {
                if !PrivacyCatalog.purposes.contains(purpose) {
                    context.report("unknown purpose \"\(purpose)\"\(PrivacyManifestEntries.hint(purpose, PrivacyCatalog.purposes))", at: KeyPath(purposePath))
                } else if !seen.insert(purpose).inserted {
                    context.report("purpose \(purpose) is listed twice", at: KeyPath(purposePath))
                }
            }
        }
    }
}
