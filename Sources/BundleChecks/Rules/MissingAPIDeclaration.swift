import LintKit
import PlistChecks
import PropertyList

/// A binary that imports a required-reason API has its category declared in the privacy
/// manifest of its bundle.
///
/// Triggers, once per category, when a binary imports a symbol of `PrivacyCatalog`'s
/// required-reason list and its bundle's `PrivacyInfo.xcprivacy` (the app's for the app's
/// executable and loose dylibs, a framework's or extension's own) declares none of the
/// symbol's categories, or the bundle has no manifest.
public struct MissingAPIDeclaration: LintRule {
    public static let description = RuleDescription(
        id: "privacy.missing-api-declaration", category: .privacy, severity: .error,
        summary: "Each required-reason API a binary imports has its category declared in its bundle's privacy manifest (ITMS-91053).",
        rationale: """
            Since May 2024 App Store Connect scans every binary of an upload for the APIs \
            Apple lists as needing a reason (file timestamps, system boot time, disk space, \
            active keyboards, user defaults) and rejects the build with ITMS-91053 "Missing \
            API declaration" when the privacy manifest of the bundle holding the binary does \
            not declare the category with an approved reason. devkit sees imported symbols \
            (C functions, Foundation constants, Objective-C class references); Objective-C \
            methods called by selector are invisible to it (Docs/lint.md).
            """,
        kinds: [.bundleBinary],
        triggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>bundle</key><string>App.app</string>
                <key>bundleKind</key><string>app</string>
                <key>privacyManifest</key><string>App.app/PrivacyInfo.xcprivacy</string>
                <key>declaredCategories</key>
                <array><string>NSPrivacyAccessedAPICategoryUserDefaults</string></array>
                <key>requiredReasonImports</key>
                <array>
                \t<dict><key>symbol</key><string>_stat</string><key>api</key><string>stat</string>
                \t<key>categories</key><array><string>NSPrivacyAccessedAPICategoryFileTimestamp</string></array></dict>
                \t<dict><key>symbol</key><string>_OBJC_CLASS_$_NSUserDefaults</string><key>api</key><string>UserDefaults</string>
                \t<key>categories</key><array><string>NSPrivacyAccessedAPICategoryUserDefaults</string></array></dict>
                </array>
                """),
            RuleExample("""
                <key>binary</key><string>App.app/Frameworks/Kit.framework/Kit</string>
                <key>bundle</key><string>App.app/Frameworks/Kit.framework</string>
                <key>bundleKind</key><string>framework</string>
                <key>declaredCategories</key><array/>
                <key>requiredReasonImports</key>
                <array>
                \t<dict><key>symbol</key><string>_mach_absolute_time</string><key>api</key><string>mach_absolute_time</string>
                \t<key>categories</key><array><string>NSPrivacyAccessedAPICategorySystemBootTime</string></array></dict>
                </array>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>bundle</key><string>App.app</string>
                <key>bundleKind</key><string>app</string>
                <key>privacyManifest</key><string>App.app/PrivacyInfo.xcprivacy</string>
                <key>declaredCategories</key>
                <array><string>NSPrivacyAccessedAPICategoryDiskSpace</string></array>
                <key>requiredReasonImports</key>
                <array>
                \t<dict><key>symbol</key><string>_getattrlist</string><key>api</key><string>getattrlist</string>
                \t<key>categories</key><array><string>NSPrivacyAccessedAPICategoryFileTimestamp</string>
                \t<string>NSPrivacyAccessedAPICategoryDiskSpace</string></array></dict>
                </array>
                """),
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>bundle</key><string>App.app</string>
                <key>bundleKind</key><string>app</string>
                <key>declaredCategories</key><array/>
                <key>requiredReasonImports</key><array/>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let declared = Set((file["declaredCategories"]?.arrayValue ?? []).compactMap(\.stringValue))
        // Undeclared uses grouped by their categories, in import order.
        var groups: [(categories: [String], symbols: [String])] = []
        for use in file["requiredReasonImports"]?.arrayValue ?? [] {
            guard let symbol = use[key: "symbol"]?.stringValue else { continue }
            let categories = (use[key: "categories"]?.arrayValue ?? []).compactMap(\.stringValue)
            guard !categories.isEmpty, declared.isDisjoint(with: categories) else { continue }
            let api = use[key: "api"]?.stringValue.map { " (\($0))" } ?? ""
            if let index = groups.firstIndex(where: { $0.categories == categories }) {
                groups[index].symbols.append(symbol + api)
            } else {
                groups.append((categories, [symbol + api]))
            }
        }
        let binary = file["binary"]?.stringValue.map(Self.lastComponent) ?? file.path
        for group in groups {
            context.report(Self.missing(binary: binary, symbols: group.symbols, categories: group.categories,
                                        manifest: file["privacyManifest"]?.stringValue, bundle: file["bundle"]?.stringValue))
        }
    }

    private static func missing(binary: String, symbols: [String], categories: [String], manifest: String?, bundle: String?) -> String {
        let what = categories.joined(separator: " or ")
        let whereDeclared = manifest.map { "\($0) declares no \(what)" } ?? "\(bundle ?? "its bundle") has no PrivacyInfo.xcprivacy declaring \(what)"
        return "\(binary) imports \(symbols.joined(separator: ", ")), a required-reason API, but \(whereDeclared) (ITMS-91053)"
    }

    static func lastComponent(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}
