import LintKit
import PropertyList

/// Each privacy-manifest value has the type Apple documents.
///
/// Triggers when the root is not a dictionary, `NSPrivacyTracking` or an entry's `…Linked` /
/// `…Tracking` is not a boolean, a list is not an array, a list's items are not the strings
/// or dictionaries it holds, or a category or data type is not a string.
public struct PrivacyValueType: LintRule {
    /// What each key holds; `[String]`-shaped lists check their items too.
    enum Shape { case bool, string, strings, dictionaries }

    static let rootShapes: [(String, Shape)] = [
        ("NSPrivacyTracking", .bool), ("NSPrivacyTrackingDomains", .strings),
        ("NSPrivacyCollectedDataTypes", .dictionaries), ("NSPrivacyAccessedAPITypes", .dictionaries),
    ]
    static let collectedShapes: [(String, Shape)] = [
        ("NSPrivacyCollectedDataType", .string), ("NSPrivacyCollectedDataTypeLinked", .bool),
        ("NSPrivacyCollectedDataTypeTracking", .bool), ("NSPrivacyCollectedDataTypePurposes", .strings),
    ]
    static let accessedShapes: [(String, Shape)] = [("NSPrivacyAccessedAPIType", .string), ("NSPrivacyAccessedAPITypeReasons", .strings)]

    public static let description = RuleDescription(
        id: "privacy.value-type", category: .privacy, severity: .error,
        summary: "Privacy-manifest values have their documented types (booleans, strings, arrays of strings or dictionaries).",
        rationale: """
            App Store Connect refuses a privacy manifest whose values have the wrong type \
            (ITMS-91056, "invalid privacy manifest"): NSPrivacyTracking written as the string \
            "NO", a single reason code not wrapped in an array, a data-type entry that is a \
            string instead of a dictionary. Xcode's editor prevents these; hand edits and \
            generators do not.
            """,
        kinds: [.privacyManifest],
        triggering: [
            RuleExample("↓<key>NSPrivacyTracking</key>\n<string>NO</string>"),
            RuleExample("<key>NSPrivacyTrackingDomains</key>\n<array>\n\t↓<integer>1</integer>\n</array>"),
            RuleExample("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryUserDefaults</string>
                \t\t↓<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<string>CA92.1</string>
                \t</dict>
                \t↓<string>NSPrivacyAccessedAPICategoryDiskSpace</string>
                </array>
                """),
            RuleExample("<plist version=\"1.0\">\n↓<array/>\n</plist>"),
        ],
        nonTriggering: [
            RuleExample("""
                <key>NSPrivacyTracking</key>
                <true/>
                <key>NSPrivacyTrackingDomains</key>
                <array><string>ads.example.com</string></array>
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
                \t</dict>
                </array>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard file.value.dictionaryEntries != nil else {
            context.report("a privacy manifest is a dictionary, not \(file.value.typeName)")
            return
        }
        check(file.value, at: [], Self.rootShapes, &context)
        for (path, entry) in PrivacyManifestEntries.dictionaries(file, "NSPrivacyCollectedDataTypes") {
            check(entry, at: path, Self.collectedShapes, &context)
        }
        for (path, entry) in PrivacyManifestEntries.dictionaries(file, "NSPrivacyAccessedAPITypes") {
            check(entry, at: path, Self.accessedShapes, &context)
        }
    }

    private func check(_ dictionary: PlistValue, at path: [String], _ shapes: [(String, Shape)], _ context: inout RuleContext) {
        for (key, shape) in shapes {
            guard let value = dictionary[key: key] else { continue }
            let keyPath = path + [key]
            switch (shape, value) {
            case (.bool, .bool), (.string, .string): break
            case (.strings, .array(let items)), (.dictionaries, .array(let items)):
                let wanted = shape == .strings ? "string" : "dict"
                for (index, item) in items.enumerated() where item.typeName != wanted {
                    context.report("\(key) items are \(wanted == "dict" ? "dictionaries" : "strings"), not \(item.typeName)", at: KeyPath(keyPath + [String(index)]))
                }
            case (.bool, _): context.report(Self.wrongType(key, "a boolean (<true/> or <false/>)", value), at: KeyPath(keyPath))
            case (.string, _): context.report(Self.wrongType(key, "a string", value), at: KeyPath(keyPath))
            case (.strings, _): context.report(Self.wrongType(key, "an array of strings", value), at: KeyPath(keyPath))
            case (.dictionaries, _): context.report(Self.wrongType(key, "an array of dictionaries", value), at: KeyPath(keyPath))
            }
        }
    }

    private static func wrongType(_ key: String, _ wanted: String, _ value: PlistValue) -> String {
        "\(key) must be \(wanted), not \(value.typeName) \(value.shortDescription)"
    }
}
