import LintKit
import PropertyList

/// An app extension runs wherever its app does.
public struct ExtensionMinimumOS: LintRule {
    static let app = AppExtensionFile.exampleOptions(["CFBundleIdentifier": .string("com.example.app"), "MinimumOSVersion": .string("16.0")])

    public static let description = RuleDescription(
        id: "extension.minimum-os", category: .appExtension, severity: .warning,
        summary: "An app extension's MinimumOSVersion (LSMinimumSystemVersion on macOS) is not above its app's.",
        rationale: """
            An extension whose minimum system version is above its app's is silently missing \
            on the systems between the two: the app installs and runs there, its widget, \
            share sheet entry or notification service does not. Usually a deployment target \
            raised in one target and not the other.
            """,
        kinds: [.infoPlist],
        triggering: [
            RuleExample("↓<key>MinimumOSVersion</key>\n<string>17.0</string>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
            RuleExample("↓<key>MinimumOSVersion</key>\n<string>16.0.1</string>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
        ],
        nonTriggering: [
            RuleExample("<key>MinimumOSVersion</key>\n<string>16</string>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
            RuleExample("<key>MinimumOSVersion</key>\n<string>15.4</string>",
                        fileName: AppExtensionFile.exampleFileName, options: app),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let pair = AppExtensionFile(file) else { return }
        for key in ["MinimumOSVersion", "LSMinimumSystemVersion"] {
            let (mine, app) = pair.strings(key)
            guard let mine, let app, let a = Self.components(mine), let b = Self.components(app),
                  Self.padded(b, a).lexicographicallyPrecedes(Self.padded(a, b)) else { continue }
            context.report("\(key) \"\(mine)\" is above the app's \"\(app)\": the extension is missing on the versions between",
                           at: KeyPath([key]))
        }
    }

    /// "16.0.1" as [16, 0, 1]; nil unless dot-separated numbers.
    static func components(_ version: String) -> [Int]? {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        return parts.map { $0! }
    }

    /// `a` with zeros appended to `b`'s length, so 16 and 16.0 compare equal.
    static func padded(_ a: [Int], _ b: [Int]) -> [Int] {
        a + Array(repeating: 0, count: max(0, b.count - a.count))
    }
}
