import LintKit
import PropertyList

/// An app's Info.plist must have the keys every bundle needs.
public struct RequiredKeys: LintRule {
    static let required = ["CFBundleIdentifier", "CFBundleExecutable", "CFBundlePackageType", "CFBundleShortVersionString", "CFBundleVersion"]
    static let names = ["CFBundleName", "CFBundleDisplayName"]

    public static let description = RuleDescription(
        id: "infoplist.required-keys", category: .infoPlist, severity: .error,
        summary: "CFBundleIdentifier, CFBundleExecutable, CFBundlePackageType, CFBundleShortVersionString, CFBundleVersion and CFBundleName or CFBundleDisplayName are present.",
        rationale: """
            Without them the bundle cannot be installed or launched, and App Store Connect \
            rejects the upload. \
            Xcode templates set them through build settings; they go missing after a hand \
            merge or when a target's Info.plist is replaced.
            """,
        kinds: [.infoPlist],
        triggering: [RuleExample("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            ↓<dict>
            \t<key>CFBundleIdentifier</key>
            \t<string>com.example.app</string>
            </dict>
            </plist>
            """)],
        nonTriggering: [RuleExample("""
            <key>CFBundleIdentifier</key>
            <string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            <key>CFBundleExecutable</key>
            <string>$(EXECUTABLE_NAME)</string>
            <key>CFBundlePackageType</key>
            <string>APPL</string>
            <key>CFBundleShortVersionString</key>
            <string>1.0</string>
            <key>CFBundleVersion</key>
            <string>1</string>
            <key>CFBundleDisplayName</key>
            <string>Demo</string>
            """)])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard case .dictionary(let root) = file.value else {
            context.report("an Info.plist's root must be a dictionary, not a \(file.value.typeName)")
            return
        }
        var missing = Self.required.filter { root[$0] == nil }
        if !Self.names.contains(where: { root[$0] != nil }) { missing.append("CFBundleName or CFBundleDisplayName") }
        guard !missing.isEmpty else { return }
        let list = missing.map { "\($0)" }.joined(separator: ", ")
        context.report("missing required key\(missing.count == 1 ? "" : "s"): \(list)")
    }
}
