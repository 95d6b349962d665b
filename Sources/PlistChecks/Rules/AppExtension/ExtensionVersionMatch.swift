import LintKit
import PropertyList

/// An app extension carries its app's version and build number.
public struct ExtensionVersionMatch: LintRule {
    static let app = AppExtensionFile.exampleOptions(["CFBundleIdentifier": .string("com.example.app"),
                                                      "CFBundleShortVersionString": .string("2.16.0"), "CFBundleVersion": .string("168")])

    public static let description = RuleDescription(
        id: "extension.version-match", category: .appExtension, severity: .warning,
        summary: "An app extension's CFBundleShortVersionString and CFBundleVersion equal its app's.",
        rationale: """
            App Store Connect answers a delivery whose extension's versions differ from the \
            app's with "CFBundleVersion Mismatch" and "CFBundleShortVersionString Mismatch" \
            (the extension named, both values quoted); the build goes through, but the \
            extension's crash reports and analytics are filed under the wrong version. The \
            usual cause is an extension target whose build settings are not tied to the app's.
            """,
        kinds: [.infoPlist],
        triggering: [
            RuleExample("↓<key>CFBundleShortVersionString</key>\n<string>1.0</string>\n↓<key>CFBundleVersion</key>\n<string>1</string>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
        ],
        nonTriggering: [
            RuleExample("<key>CFBundleShortVersionString</key>\n<string>2.16.0</string>\n<key>CFBundleVersion</key>\n<string>168</string>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let pair = AppExtensionFile(file) else { return }
        for key in ["CFBundleShortVersionString", "CFBundleVersion"] {
            let (mine, app) = pair.strings(key)
            guard let mine, let app, mine != app else { continue }
            context.report("\(key) \"\(mine)\" differs from the app's \"\(app)\" (App Store Connect: \(key) Mismatch)", at: KeyPath([key]))
        }
    }
}
