import LintKit
import PropertyList

/// Keys must not start or end with whitespace.
public struct KeyWhitespace: LintRule {
    public static let description = RuleDescription(
        id: "plist.key-whitespace", category: .plistHygiene, severity: .warning,
        summary: "Dictionary keys must not start or end with spaces, tabs or newlines.",
        rationale: """
            "CFBundleVersion " is a different key from "CFBundleVersion": the system never reads \
            it, so the setting silently has no effect (typically a copy-paste from a web page \
            or a wrapped line in a hand edit). The fix renames the key to its trimmed spelling \
            when no sibling already has it.
            """,
        kinds: FileKind.structured, isFixable: true,
        triggering: [
            RuleExample("↓<key>CFBundleVersion </key>\n<string>1</string>", expectsFix: true),
            RuleExample("<key>NSAppTransportSecurity</key>\n<dict>\n\t↓<key>\tNSAllowsLocalNetworking</key>\n\t<true/>\n</dict>", expectsFix: true),
            // Both spellings present: reported, but renaming would collide, so no fix.
            RuleExample("<key>A</key>\n<string>1</string>\n↓<key>A </key>\n<string>2</string>"),
        ],
        nonTriggering: [RuleExample("<key>CFBundleVersion</key>\n<string>1 </string>")])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        forEachValue(in: file.value) { path, _ in
            guard let key = path.last, let first = key.utf8.first, let last = key.utf8.last,
                  ValueFormat.isSpace(first) || ValueFormat.isSpace(last) else { return }
            let trimmed = ValueFormat.trimmed(key)
            let parent = file.value.lookup(path.dropLast())
            let collides = trimmed.isEmpty || parent?[key: trimmed] != nil
            // An array element's "key" is its index, which has no whitespace: only dictionary keys get here.
            context.report("key \"\(key)\" has leading or trailing whitespace", at: KeyPath(path),
                           fix: collides ? nil : .edit(.renameKey(KeyPath(path), to: trimmed)))
        }
    }
}
