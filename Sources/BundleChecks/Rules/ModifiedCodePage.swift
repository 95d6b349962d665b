import LintKit
import PropertyList

/// Every page of a binary matches its hash in the CodeDirectory.
///
/// Triggers for each page (up to eight a binary, then once for the rest; a universal file's
/// name their slice) whose digest differs
/// from its code slot in any CodeDirectory (the primary one and the alternates, SHA-1 and
/// SHA-256): the binary was changed after it was signed.
public struct ModifiedCodePage: LintRule {
    public static let description = RuleDescription(
        id: "seal.code-page", category: .codeSigning, severity: .error,
        summary: "Every page of each binary matches the hash its code signature holds for it.",
        rationale: """
            The CodeDirectory holds a hash of every 4 KiB page of the binary up to its code \
            limit (the last page may be short). The kernel checks each page as it is loaded \
            and kills the process on a mismatch; App Store Connect rejects the upload \
            (ITMS-90035). A build step that patches, strips or re-links a binary after \
            signing causes this: sign last.
            """,
        kinds: [.bundleSignature],
        triggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>pages</key>
                <array><dict><key>file</key><string>App.app/App</string><key>offset</key><integer>8192</integer>
                <key>page</key><integer>2</integer><key>size</key><integer>4096</integer>
                <key>hashes</key><array><string>SHA-1</string><string>SHA-256</string></array></dict></array>
                <key>morePages</key><integer>0</integer>
                """),
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>pages</key>
                <array><dict><key>file</key><string>App.app/App</string><key>offset</key><integer>16384</integer>
                <key>page</key><integer>0</integer><key>size</key><integer>4096</integer><key>slice</key><string>arm64 slice at 0x4000</string>
                <key>hashes</key><array><string>SHA-256</string></array></dict></array>
                <key>morePages</key><integer>12</integer>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>pages</key><array/>
                <key>morePages</key><integer>0</integer>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let pages = file["pages"]?.arrayValue ?? []
        for (index, page) in pages.enumerated() {
            let number = page[key: "page"]?.intValue ?? 0
            let size = page[key: "size"]?.intValue ?? 0
            let hashes = (page[key: "hashes"]?.arrayValue ?? []).compactMap(\.stringValue)
            let which = hashes.joined(separator: " and ") + (hashes.count == 1 ? " hash" : " hashes")
            let slice = page[key: "slice"]?.stringValue.map { " of the \($0)" } ?? ""
            context.report("page \(number) (\(size) bytes)\(slice) does not match its \(which) in the code signature: the binary changed after signing",
                           at: KeyPath(["pages", String(index)]))
        }
        if let more = file["morePages"]?.intValue, more > 0, !pages.isEmpty {
            context.report("\(more) more pages do not match their hashes", at: KeyPath(["pages", String(pages.count - 1)]))
        }
    }
}
