import LintKit
import PropertyList

/// NSMainNibFile / UIMainStoryboardFile name a nib or storyboard the project has.
public struct MainInterfaceFile: LintRule {
    /// Keys naming the interface file loaded at launch, and the extensions that file may have.
    static let keys: [(key: String, extensions: [String])] = [
        ("NSMainNibFile", ["xib", "nib"]), ("NSMainNibFile~ipad", ["xib", "nib"]),
        ("UIMainStoryboardFile", ["storyboard", "storyboardc"]), ("UIMainStoryboardFile~ipad", ["storyboard", "storyboardc"]),
    ]

    public static let description = RuleDescription(
        id: "infoplist.main-interface-file", category: .infoPlist, severity: .error,
        summary: "With --project-dir: NSMainNibFile and UIMainStoryboardFile name a nib or storyboard that exists in the project.",
        rationale: """
            The app loads this file at launch; when it is missing (renamed, or deleted when the \
            app moved to SwiftUI or code-only UI) the app crashes on start ("Could not find a \
            storyboard named …"). An app without a main interface file must not keep the key: \
            the fix deletes it.
            """,
        kinds: [.infoPlist], isFixable: true,
        triggering: [RuleExample("↓<key>UIMainStoryboardFile</key>\n<string>Main</string>",
                                 options: PlistLintOptions(projectFileNames: ["LaunchScreen.storyboard"]), expectsFix: true)],
        nonTriggering: [
            RuleExample("<key>UIMainStoryboardFile</key>\n<string>Main</string>", options: PlistLintOptions(projectFileNames: ["Main.storyboard"])),
            RuleExample("<key>NSMainNibFile</key>\n<string>MainMenu</string>", options: PlistLintOptions(projectFileNames: ["MainMenu.xib"])),
            RuleExample("<key>UIMainStoryboardFile</key>\n<string>Main</string>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let names = file.plistOptions.projectFileNames else { return }
        for (key, extensions) in Self.keys {
            guard let value = file[key] else { continue }
            guard let name = value.stringValue, !name.isEmpty else {
                context.report("\(key) must name a file, not hold \(value.shortDescription)", key: key, fix: .edit(.delete(KeyPath([key]))))
                continue
            }
            let candidates = [name] + extensions.map { "\(name).\($0)" }
            if candidates.contains(where: names.contains) { continue }
            context.report("\(key) names \"\(name)\", but the project has no \(extensions.map { "\(name).\($0)" }.joined(separator: " or ")); the app would crash at launch", key: key,
                           fix: .edit(.delete(KeyPath([key]))))
        }
    }
}
