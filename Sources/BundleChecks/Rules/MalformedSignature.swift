import LintKit
import PropertyList

/// A binary's code signature, or its bundle's CodeResources or profile, can be read.
///
/// Triggers for each part that does not parse: a SuperBlob, CodeDirectory or CMS blob that is
/// truncated or whose counts, offsets or sizes point outside it, a CodeResources plist without
/// `files2`/`files`, an unreadable `embedded.mobileprovision`. The finding names the byte
/// offset where reading stopped.
public struct MalformedSignature: LintRule {
    public static let description = RuleDescription(
        id: "signature.malformed", category: .codeSigning, severity: .error,
        summary: "A binary's code signature, its bundle's CodeResources and profile can be read.",
        rationale: """
            The system refuses to launch code whose signature it cannot parse, and App Store \
            Connect rejects the upload. A signature damaged after signing (a binary cut short, \
            a tool that rewrote the load commands) or crafted to mislead (counts and offsets \
            pointing outside the blob) is reported at the byte where reading stopped; nothing \
            past that point is trusted.
            """,
        kinds: [.bundleSignature],
        triggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>malformed</key>
                <array><dict><key>file</key><string>App.app/App</string><key>offset</key><integer>49168</integer>
                <key>reason</key><string>code directory: 4294967295 code slots for a code limit of 24576 bytes in pages of 4096; expected 6</string></dict></array>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>malformed</key><array/>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        for (index, entry) in (file["malformed"]?.arrayValue ?? []).enumerated() {
            let reason = entry[key: "reason"]?.stringValue ?? "unreadable"
            context.report("the code signature cannot be read: \(reason)", at: KeyPath(["malformed", String(index)]))
        }
    }
}
