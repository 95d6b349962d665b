import LintKit
import PropertyList

/// What a code signature binds beside the code (Info.plist, requirements, CodeResources,
/// entitlements) is what was signed.
///
/// Triggers for each special slot of a CodeDirectory whose item changed (`modified`), is gone
/// while its hash is set (`missing`), or exists while the slot is empty (`unbound`): slot −1
/// the bundle's Info.plist, −2 the requirements blob, −3 `_CodeSignature/CodeResources`, −5
/// the entitlements blob, −7 the DER entitlements blob.
public struct SpecialSlotMismatch: LintRule {
    public static let description = RuleDescription(
        id: "seal.special-slot", category: .codeSigning, severity: .error,
        summary: "Info.plist, CodeResources, the requirements and the entitlements match the hashes the code signature binds them by.",
        rationale: """
            A CodeDirectory's special slots hold the hashes of the files and blobs signed with \
            the code: an Info.plist edited after signing (a version bump, a build script), \
            entitlements swapped into the signature, or a CodeResources rewritten no longer \
            match, and the signature is invalid (ITMS-90035). An all-zero slot means the item \
            was not signed; if it exists anyway, nothing vouches for it.
            """,
        kinds: [.bundleSignature],
        triggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>specialSlots</key>
                <array><dict><key>file</key><string>App.app/App</string><key>offset</key><integer>49220</integer>
                <key>slot</key><integer>-1</integer><key>item</key><string>App.app/Info.plist</string>
                <key>problem</key><string>modified</string><key>hashTypes</key><array><string>SHA-1</string><string>SHA-256</string></array></dict></array>
                """),
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>specialSlots</key>
                <array><dict><key>slot</key><integer>-5</integer><key>item</key><string>the entitlements blob</string>
                <key>problem</key><string>missing</string><key>hashTypes</key><array><string>SHA-256</string></array></dict></array>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>specialSlots</key><array/>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        for (index, entry) in (file["specialSlots"]?.arrayValue ?? []).enumerated() {
            let item = entry[key: "item"]?.stringValue ?? "an item"
            let slot = entry[key: "slot"]?.intValue ?? 0
            let types = (entry[key: "hashTypes"]?.arrayValue ?? []).compactMap(\.stringValue)
            let slice = entry[key: "slice"]?.stringValue.map { " (\($0))" } ?? ""
            let directories = "the " + types.joined(separator: " and ") + (types.count == 1 ? " CodeDirectory" : " CodeDirectories") + slice
            let message = switch entry[key: "problem"]?.stringValue {
            case "missing": "\(item) is bound by special slot \(slot) of \(directories) but is missing"
            case "unbound": "\(item) is not bound by \(directories) (special slot \(slot) is empty): nothing vouches for it"
            default: "\(item) does not match its hash in special slot \(slot) of \(directories): it changed after signing"
            }
            context.report(message, at: KeyPath(["specialSlots", String(index)]))
        }
    }
}
