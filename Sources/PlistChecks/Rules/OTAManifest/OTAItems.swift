import LintKit
import PropertyList

/// The manifest's `items` is an array with exactly one item.
public struct OTAItems: LintRule {
    public static let description = RuleDescription(
        id: "ota.items", category: .otaManifest, severity: .error,
        summary: "An over-the-air manifest's items is an array holding exactly one dictionary.",
        rationale: """
            The itms-services:// installer reads one app per manifest; with no item, several, \
            or a non-dictionary the device shows "Unable to Download App" with no reason. \
            (Manifests are recognised by content: a plist whose items hold assets; with a \
            config kind override, any file can be checked as one.)
            """,
        kinds: [.otaManifest],
        triggering: [
            RuleExample("↓<key>items</key>\n<array>\n\t<dict><key>assets</key><array/></dict>\n\t<dict><key>assets</key><array/></dict>\n</array>"),
        ],
        nonTriggering: [RuleExample("<key>items</key>\n<array>\n\t<dict><key>assets</key><array/></dict>\n</array>")])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let items = file["items"] else {
            context.report("the manifest has no items array")
            return
        }
        guard let array = items.arrayValue else {
            context.report("items must be an array, not \(items.typeName)", key: "items")
            return
        }
        if array.count != 1 {
            context.report("items holds \(array.count) entries; an install manifest describes exactly one app", key: "items")
        } else if case .dictionary = array[0] {
        } else {
            context.report("the item must be a dictionary, not \(array[0].typeName)", at: KeyPath(["items", "0"]))
        }
    }
}
