import LintKit
import PropertyList

/// CFBundleIdentifier uses only letters, digits, periods and hyphens.
public struct BundleIdentifierFormat: LintRule {
    public static let description = RuleDescription(
        id: "infoplist.bundle-identifier-format", category: .infoPlist, severity: .error,
        summary: "CFBundleIdentifier holds only A–Z, a–z, 0–9, period and hyphen, in non-empty components.",
        rationale: """
            A bundle identifier with an underscore, a space or an empty component is refused \
            by code signing and by App Store Connect, \
            and must match the provisioning profile exactly. \
            Build-setting references ($(PRODUCT_BUNDLE_IDENTIFIER)) are left to Xcode. The fix \
            trims surrounding whitespace when that is the only problem.
            """,
        kinds: [.infoPlist], isFixable: true,
        triggering: [
            RuleExample("↓<key>CFBundleIdentifier</key>\n<string>com.example.my_app</string>"),
            RuleExample("↓<key>CFBundleIdentifier</key>\n<string>com..example</string>"),
            RuleExample("↓<key>CFBundleIdentifier</key>\n<string>com.example.app </string>", expectsFix: true),
            RuleExample("↓<key>CFBundleIdentifier</key>\n<integer>1</integer>"),
        ],
        nonTriggering: [
            RuleExample("<key>CFBundleIdentifier</key>\n<string>com.example.my-app2</string>"),
            RuleExample("<key>CFBundleIdentifier</key>\n<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>"),
        ])

    public init() {}

    static func isValid(_ id: String) -> Bool {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        return !id.isEmpty && parts.allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
        }
    }

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let value = file["CFBundleIdentifier"] else { return }
        guard let id = value.stringValue else {
            context.report("CFBundleIdentifier must be a string, not \(value.typeName)", key: "CFBundleIdentifier")
            return
        }
        if ValueFormat.hasBuildVariable(id) || Self.isValid(id) { return }
        let trimmed = ValueFormat.trimmed(id)
        let fix: PlistFix? = Self.isValid(trimmed) ? .edit(.replace(KeyPath(["CFBundleIdentifier"]), .string(trimmed))) : nil
        context.report("CFBundleIdentifier \"\(id)\" may hold only A-Z a-z 0-9 . - in non-empty components", key: "CFBundleIdentifier", fix: fix)
    }
}
