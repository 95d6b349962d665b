import LintKit
import PropertyList

/// Privacy usage descriptions (`NS…UsageDescription`) say why the app needs access.
public struct UsageDescription: LintRule {
    static let defaultPlaceholders = ["todo", "fixme", "tbd", "placeholder", "lorem ipsum", "usage description", "description here", "xxx"]

    public static let description = RuleDescription(
        id: "infoplist.usage-description", category: .infoPlist, severity: .error,
        summary: "NS…UsageDescription values are non-empty strings that are not placeholder text.",
        rationale: """
            iOS shows the purpose string when it asks the user for access; an empty one is \
            rejected at upload (ITMS-90683 "Missing purpose string in Info.plist" covers \
            missing and empty ones) and placeholder text ("TODO", "Lorem ipsum") is rejected \
            in App Review under guideline 5.1.1. A key whose value is not a string crashes the \
            permission request.
            """,
        kinds: [.infoPlist],
        options: [RuleOption("placeholders", default: .list(defaultPlaceholders), "lowercase words that mark a purpose string as a placeholder")],
        triggering: [
            RuleExample("↓<key>NSCameraUsageDescription</key>\n<string></string>"),
            RuleExample("↓<key>NSLocationWhenInUseUsageDescription</key>\n<string>TODO: explain</string>"),
            RuleExample("↓<key>NSMicrophoneUsageDescription</key>\n<true/>"),
            RuleExample("↓<key>NSPhotoLibraryUsageDescription</key>\n<string>   </string>"),
        ],
        nonTriggering: [
            RuleExample("<key>NSCameraUsageDescription</key>\n<string>Scans the QR code on your boarding pass.</string>"),
            RuleExample("<key>NSCameraUsageDescription</key>\n<string>$(CAMERA_PURPOSE)</string>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let entries = file.value.dictionaryEntries else { return }
        let placeholders = context.listOption("placeholders", default: Self.defaultPlaceholders).map { $0.lowercased() }
        for (key, value) in entries where key.hasSuffix("UsageDescription") {
            guard let text = value.stringValue else {
                context.report("\(key) must be a string, not \(value.typeName)", key: key)
                continue
            }
            let trimmed = ValueFormat.trimmed(text)
            if trimmed.isEmpty {
                context.report("\(key) is empty; say why the app needs this access (ITMS-90683)", key: key)
            } else if let word = ValueFormat.firstContained(placeholders, in: trimmed) {
                context.report("\(key) looks like placeholder text (\"\(word)\"); App Review rejects it (guideline 5.1.1)", key: key)
            }
        }
    }
}
