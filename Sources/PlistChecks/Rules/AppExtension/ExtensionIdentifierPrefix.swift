import LintKit
import PropertyList

/// An app extension's bundle identifier begins with its app's and a dot.
public struct ExtensionIdentifierPrefix: LintRule {
    static let app = AppExtensionFile.exampleOptions(["CFBundleIdentifier": .string("com.example.app")])

    public static let description = RuleDescription(
        id: "extension.identifier-prefix", category: .appExtension, severity: .error,
        summary: "An app extension's CFBundleIdentifier begins with its app's CFBundleIdentifier and a dot (with --app, or inside an .app).",
        rationale: """
            iOS installs an extension only under its app's identifier: Xcode refuses to embed \
            one whose identifier is not prefixed ("Embedded binary's bundle identifier is not \
            prefixed with the parent app's bundle identifier"), and an app assembled or \
            re-signed outside Xcode is refused at upload or install instead.
            """,
        kinds: [.infoPlist],
        triggering: [
            RuleExample("↓<key>CFBundleIdentifier</key>\n<string>com.example.widget</string>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
            RuleExample("↓<key>CFBundleIdentifier</key>\n<string>com.example.appwidget</string>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
        ],
        nonTriggering: [
            RuleExample("<key>CFBundleIdentifier</key>\n<string>com.example.app.widget</string>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
            // Not an extension: the app's own Info.plist.
            RuleExample("<key>CFBundleIdentifier</key>\n<string>com.example.other</string>", options: app),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let pair = AppExtensionFile(file) else { return }
        let (id, appID) = pair.strings("CFBundleIdentifier")
        guard let id, let appID, !id.hasPrefix(appID + ".") else { return }
        context.report("the extension's CFBundleIdentifier \"\(id)\" does not begin with its app's \"\(appID).\"",
                       at: KeyPath(["CFBundleIdentifier"]))
    }
}
