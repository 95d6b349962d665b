import LintKit
import PropertyList

/// `<data>` values should stay small.
public struct LargeData: LintRule {
    public static let description = RuleDescription(
        id: "plist.large-data", category: .plistHygiene, severity: .warning,
        summary: "A <data> value is larger than the limit (default 64 KiB).",
        rationale: """
            Big blobs (images, certificates, archived objects) in a plist are read whole at \
            every launch, bloat diffs with base64 and usually belong in a resource file. An \
            Info.plist is loaded by the system for every app on the device: keep it small.
            """,
        kinds: FileKind.structured,
        options: [RuleOption("max_bytes", default: .integer(65536), "largest <data> value allowed, in bytes")],
        triggering: [RuleExample("↓<key>Blob</key>\n<data>AAECAwQFBgc=</data>", ruleOptions: ["max_bytes": .integer(4)])],
        nonTriggering: [RuleExample("<key>Blob</key>\n<data>AAECAwQFBgc=</data>")])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let limit = context.integerOption("max_bytes", default: 65536)
        forEachValue(in: file.value) { path, value in
            if case .data(let bytes) = value, bytes.count > limit {
                context.report("<data> of \(bytes.count) bytes (limit \(limit)); move it to a resource file", at: KeyPath(path))
            }
        }
    }
}
