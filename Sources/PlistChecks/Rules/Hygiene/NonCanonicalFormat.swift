import LintKit
import PlistTools
import PropertyList

/// The file should be in Apple's canonical layout (off by default).
public struct NonCanonicalFormat: LintRule {
    public static let description = RuleDescription(
        id: "plist.non-canonical-format", category: .plistHygiene, severity: .warning,
        summary: "The file is not in canonical layout (what Xcode and devkit plist fmt write).",
        rationale: """
            Mixed indentation and hand layout make diffs noisy: an edit in Xcode re-lays the \
            whole file and the real change drowns. Off by default because many teams do not \
            format plists; enable it to keep them canonical. The fix rewrites the file as \
            devkit plist fmt does (files with comments are left alone).
            """,
        kinds: FileKind.structured, isEnabledByDefault: false, isFixable: true,
        triggering: [RuleExample("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleVersion</key><string>1</string></dict></plist>
            """, expectsFix: true)],
        nonTriggering: [RuleExample("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>CFBundleVersion</key>
            \t<string>1</string>
            </dict>
            </plist>

            """)])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard file.format == .xml, let output = try? PlistFormatter().format(file.bytes, as: .xml), output.isChanged else { return }
        context.report("not in canonical layout (devkit plist fmt would rewrite it)", fix: .reformat)
    }
}
