import LintKit
import PlistChecks
import PropertyList
import System

/// `devkit lint App.app`'s extension check: each `PlugIns/*.appex` Info.plist linted again
/// with the app's Info.plist beside it, so the extension rules (identifier prefix, extension
/// point, versions, minimum OS) judge it against its own app. The walk over the bundle's
/// files has already run every other rule on it, so only the extension rules run; unreadable
/// plists are the walk's (and `RequiredReasonCheck`'s) to report.
public struct AppExtensionCheck: DirectoryCheck {
    static let ruleIDs = Set(PlistRules.appExtensionRules.map { $0.description.id })

    public init() {}

    public func applies(to directory: String) -> Bool {
        RequiredReasonCheck().applies(to: directory)
    }

    public func check(_ directory: String, engine: LintEngine) -> (findings: [Finding], inputErrors: [String]) {
        var options = engine.options as? PlistLintOptions ?? PlistLintOptions()
        // `--app` already set: the walk judged the extensions against that app.
        guard options.appInfo == nil else { return ([], []) }
        let bundles = BundleInventory.bundles(in: directory).bundles
        guard let app = bundles.first(where: { $0.kind == .app }), let appInfo = Self.read(app.infoPlist) else { return ([], []) }
        options.appInfo = appInfo.value
        var findings: [Finding] = []
        for bundle in bundles where bundle.kind == .appExtension {
            guard let info = Self.read(bundle.infoPlist) else { continue }
            let file = LintFile(path: bundle.infoPlist, kind: .infoPlist, format: info.format, bytes: info.bytes,
                                value: info.value, options: options)
            findings += engine.lint(file, only: Self.ruleIDs)
        }
        return (findings, [])
    }

    /// An Info.plist's bytes and value; nil when it cannot be read (reported elsewhere).
    static func read(_ path: String) -> (bytes: [UInt8], format: PlistFormat, value: PlistValue)? {
        guard let bytes = try? FileIO.read(path, kind: .propertyList),
              let document = try? PropertyListCoding.read(bytes) else { return nil }
        return (bytes, document.format, document.value)
    }
}
