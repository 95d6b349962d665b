import LintKit
import PropertyList

/// An app extension's Info.plist with its app's beside it: what the extension rules compare.
struct AppExtensionFile {
    /// The extension's Info.plist.
    var info: PlistValue
    /// The containing app's Info.plist (`--app`, or the app `devkit lint App.app` found it in).
    var app: PlistValue

    /// The pair, when `file` is an extension's Info.plist (inside an `.appex`, or declaring
    /// `NSExtension` or ExtensionKit's `EXAppExtensionAttributes`) and the app's is known.
    init?(_ file: LintFile) {
        guard let app = file.plistOptions.appInfo, case .dictionary = file.value else { return nil }
        let inAppex = file.path.split(separator: "/").contains { $0.hasSuffix(".appex") }
        guard inAppex || file["NSExtension"] != nil || file["EXAppExtensionAttributes"] != nil else { return nil }
        self.info = file.value
        self.app = app
    }

    /// The string at `key` in the extension's and the app's Info.plist.
    func strings(_ key: String) -> (extension: String?, app: String?) {
        (info[key: key]?.stringValue, app[key: key]?.stringValue)
    }

    /// The Info.plist options every extension example lints with.
    static func exampleOptions(_ app: [String: PlistValue]) -> PlistLintOptions {
        PlistLintOptions(appInfo: .dictionary(.init(uniqueKeysWithValues: app.sorted { $0.key < $1.key })))
    }

    /// Where the examples' Info.plist lives: inside an extension bundle.
    static let exampleFileName = "App.app/PlugIns/Widget.appex/Info.plist"
}
