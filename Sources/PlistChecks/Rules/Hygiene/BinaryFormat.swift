import LintKit
import PropertyList

/// Source files should be text property lists.
public struct BinaryFormat: LintRule {
    public static let description = RuleDescription(
        id: "plist.binary-format", category: .plistHygiene, severity: .note,
        summary: "A binary property list is committed where a text one is expected.",
        rationale: """
            Binary plists do not diff or merge, so reviews miss changes and merge conflicts \
            cannot be resolved by hand. Xcode converts Info.plist and entitlements to binary \
            when it builds; sources should stay XML (devkit plist convert --to xml). Not \
            reported with --built-product, where binary is normal.
            """,
        kinds: FileKind.structured,
        triggering: [RuleExample("<key>CFBundleVersion</key>\n<string>1</string>", format: .binary)],
        nonTriggering: [
            RuleExample("<key>CFBundleVersion</key>\n<string>1</string>"),
            RuleExample("<key>CFBundleVersion</key>\n<string>1</string>", options: PlistLintOptions(isBuiltProduct: true), format: .binary),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard file.format == .binary, !file.plistOptions.isBuiltProduct else { return }
        context.report("binary property list; commit it as XML so it diffs and merges (devkit plist convert --to xml --in-place)")
    }
}
