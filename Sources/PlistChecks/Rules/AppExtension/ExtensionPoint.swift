import LintKit
import PropertyList

/// An app extension names the extension point it plugs into, and an `NSExtension` point is
/// one Apple defines (`ExtensionPointCatalog`).
public struct ExtensionPoint: LintRule {
    static let app = AppExtensionFile.exampleOptions(["CFBundleIdentifier": .string("com.example.app")])

    public static let description = RuleDescription(
        id: "extension.point", category: .appExtension, severity: .error,
        summary: "An app extension's Info.plist has NSExtension with an NSExtensionPointIdentifier Apple defines (or ExtensionKit's EXAppExtensionAttributes with an EXExtensionPointIdentifier).",
        rationale: """
            The extension point identifier (com.apple.widgetkit-extension, \
            com.apple.usernotifications.service, …) is how the system knows what an \
            extension is for; without it, or with a misspelt one, the extension is never \
            loaded, and App Store validation refuses a bundle in PlugIns/ that does not \
            declare a valid one. NSExtension points are checked against Apple's list \
            (\(ExtensionPointCatalog.source.url), read \(ExtensionPointCatalog.source.read.prefix(10))); \
            points newer than devkit's list can be accepted with the known_points option. \
            ExtensionKit points can be defined by apps, so any EXExtensionPointIdentifier is \
            accepted.
            """,
        kinds: [.infoPlist],
        options: [RuleOption("known_points", default: .list([]), "additional NSExtensionPointIdentifier values to accept")],
        triggering: [
            RuleExample("↓<key>CFBundleIdentifier</key>\n<string>com.example.app.widget</string>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
            RuleExample("↓<key>NSExtension</key>\n<dict>\n\t<key>NSExtensionPrincipalClass</key>\n\t<string>Widget</string>\n</dict>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
            RuleExample("<key>NSExtension</key>\n<dict>\n\t↓<key>NSExtensionPointIdentifier</key>\n\t<string></string>\n</dict>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
            RuleExample("<key>NSExtension</key>\n<dict>\n\t↓<key>NSExtensionPointIdentifier</key>\n\t<string>com.apple.widgetkit-extensoin</string>\n</dict>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
        ],
        nonTriggering: [
            RuleExample("<key>NSExtension</key>\n<dict>\n\t<key>NSExtensionPointIdentifier</key>\n\t<string>com.apple.widgetkit-extension</string>\n</dict>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
            RuleExample("<key>EXAppExtensionAttributes</key>\n<dict>\n\t<key>EXExtensionPointIdentifier</key>\n\t<string>com.example.app.filters</string>\n</dict>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
            RuleExample("<key>NSExtension</key>\n<dict>\n\t<key>NSExtensionPointIdentifier</key>\n\t<string>com.apple.future-point</string>\n</dict>",
                        fileName: AppExtensionFile.exampleFileName, options: app, ruleOptions: ["known_points": .list(["com.apple.future-point"])]),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard AppExtensionFile(file) != nil else { return }
        for (container, key) in [("NSExtension", "NSExtensionPointIdentifier"), ("EXAppExtensionAttributes", "EXExtensionPointIdentifier")] {
            guard let attributes = file[container] else { continue }
            guard case .dictionary = attributes else {
                return context.report("\(container) is not a dictionary", at: KeyPath([container]))
            }
            guard let point = attributes[key: key] else {
                return context.report("\(container) has no \(key): the system cannot tell what the extension is for", at: KeyPath([container]))
            }
            guard let identifier = point.stringValue, !identifier.isEmpty else {
                return context.report("\(key) is not a non-empty string", at: KeyPath([container, key]))
            }
            // Only NSExtension points are Apple's alone; ExtensionKit points may be an app's own.
            if container == "NSExtension", !ExtensionPointCatalog.isKnown(identifier),
               !context.listOption("known_points", default: []).contains(identifier) {
                let hint = EditDistance.closest(to: identifier, in: ExtensionPointCatalog.identifiers).map { "; did you mean \"\($0)\"?" } ?? ""
                context.report("NSExtensionPointIdentifier \"\(identifier)\" is not one of Apple's extension points\(hint)", at: KeyPath([container, key]))
            }
            return
        }
        // At its identifier, which names the bundle; at the root when there is none.
        let anchor = file["CFBundleIdentifier"] != nil ? KeyPath(["CFBundleIdentifier"]) : KeyPath([])
        context.report("an app extension's Info.plist has no NSExtension (or EXAppExtensionAttributes) naming its extension point", at: anchor)
    }
}
