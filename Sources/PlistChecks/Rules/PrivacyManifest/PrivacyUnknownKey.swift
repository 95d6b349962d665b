import LintKit
import PropertyList

/// A privacy manifest uses only the keys Apple documents.
///
/// Triggers on a root key that is not one of the four manifest keys, and on an entry key of
/// `NSPrivacyCollectedDataTypes` or `NSPrivacyAccessedAPITypes` that does not belong there.
public struct PrivacyUnknownKey: LintRule {
    public static let description = RuleDescription(
        id: "privacy.unknown-key", category: .privacy, severity: .error,
        summary: "A privacy manifest has only the keys Apple documents (with a \"did you mean\" for near misses).",
        rationale: """
            App Store Connect reads PrivacyInfo.xcprivacy by its documented keys; a misspelled \
            one (NSPrivacyAccessedAPITypeReason, NSPrivacyTrackingDomain) is not read, so the \
            declaration it holds is missing (ITMS-91053 for an API, ITMS-91061 for an SDK's \
            manifest that declares nothing) or the manifest is refused as invalid (ITMS-91056).
            """,
        kinds: [.privacyManifest],
        triggering: [
            RuleExample("<key>NSPrivacyTracking</key>\n<false/>\n↓<key>NSPrivacyTrackingDomain</key>\n<array/>"),
            RuleExample("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryUserDefaults</string>
                \t\t↓<key>NSPrivacyAccessedAPITypeReason</key>
                \t\t<array><string>CA92.1</string></array>
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
                \t\t<key>NSPrivacyCollectedDataTypePurposes</key>
                \t\t<array><string>NSPrivacyCollectedDataTypePurposeAnalytics</string></array>
                \t\t↓<key>NSPrivacyCollectedDataTypeReason</key>
                \t\t<string>crash reports</string>
                \t</dict>
                </array>
                """),
        ],
        nonTriggering: [
            RuleExample("<key>NSPrivacyTracking</key>\n<false/>\n<key>NSPrivacyTrackingDomains</key>\n<array/>\n<key>NSPrivacyCollectedDataTypes</key>\n<array/>\n<key>NSPrivacyAccessedAPITypes</key>\n<array/>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        report(file.value, at: [], known: PrivacyCatalog.manifestKeys, what: "privacy manifest key", &context)
        for (path, entry) in PrivacyManifestEntries.dictionaries(file, "NSPrivacyCollectedDataTypes") {
            report(entry, at: path, known: PrivacyCatalog.collectedDataTypeKeys, what: "key in an NSPrivacyCollectedDataTypes entry", &context)
        }
        for (path, entry) in PrivacyManifestEntries.dictionaries(file, "NSPrivacyAccessedAPITypes") {
            report(entry, at: path, known: PrivacyCatalog.accessedAPITypeKeys, what: "key in an NSPrivacyAccessedAPITypes entry", &context)
        }
    }

    private func report(_ dictionary: PlistValue, at path: [String], known: [String], what: String, _ context: inout RuleContext) {
        for (key, _) in dictionary.dictionaryEntries ?? [] where !known.contains(key) {
            context.report("unknown \(what) \"\(key)\"\(PrivacyManifestEntries.hint(key, known))", at: KeyPath(path + [key]))
        }
    }
}
