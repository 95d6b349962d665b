import LintKit
import PropertyList

/// A built product's plist holds no `$(VARIABLE)` references.
public struct UnexpandedVariable: LintRule {
    public static let description = RuleDescription(
        id: "infoplist.unexpanded-variable", category: .infoPlist, severity: .error,
        summary: "With --built-product: no string holds an unexpanded build setting ($(NAME) or ${NAME}).",
        rationale: """
            Xcode expands build settings when it processes Info.plist; a reference left in the \
            built product means the setting was undefined for that target or configuration \
            (a typo, or a setting defined only for Debug). The app then ships \
            "$(PRODUCT_BUNDLE_IDENTIFIER)" as its identifier and fails signing or upload. \
            Checked only with --built-product: sources are meant to hold references.
            """,
        kinds: [.infoPlist, .entitlements],
        triggering: [RuleExample("↓<key>CFBundleIdentifier</key>\n<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n<key>CFBundleURLTypes</key>\n<array>\n\t↓<string>${URL_SCHEME}</string>\n</array>",
                                 options: PlistLintOptions(isBuiltProduct: true))],
        nonTriggering: [
            RuleExample("<key>CFBundleIdentifier</key>\n<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>"),
            RuleExample("<key>CFBundleIdentifier</key>\n<string>com.example.app</string>", options: PlistLintOptions(isBuiltProduct: true)),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard file.plistOptions.isBuiltProduct else { return }
        forEachValue(in: file.value) { path, value in
            if let text = value.stringValue, ValueFormat.hasBuildVariable(text) {
                context.report("\"\(text)\" holds an unexpanded build setting in a built product", at: KeyPath(path))
            }
        }
    }
}
