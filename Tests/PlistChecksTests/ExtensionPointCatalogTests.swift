import LintKit
import PlistChecks
import PropertyList
import Testing

/// `ExtensionPointCatalog` is what `extension.point` checks against: every identifier in it is
/// accepted (so no entry is dead or malformed for the rule), a near miss of each is refused
/// with that identifier as the suggestion, and the list names its source and date.
@Suite struct ExtensionPointCatalogTests {
    /// The `extension.point` findings for an extension whose NSExtension names `identifier`.
    static func findings(_ identifier: String, container: String = "NSExtension", key: String = "NSExtensionPointIdentifier") throws -> [Finding] {
        var configuration = LintConfiguration()
        configuration.onlyRules = ["extension.point"]
        let app = PlistValue.dictionary(["CFBundleIdentifier": .string("com.example.app")])
        let engine = try LintEngine(registry: PlistRules.registry, configuration: configuration, options: PlistLintOptions(appInfo: app))
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>CFBundleIdentifier</key>
            \t<string>com.example.app.ext</string>
            \t<key>\(container)</key>
            \t<dict>
            \t\t<key>\(key)</key>
            \t\t<string>\(identifier)</string>
            \t</dict>
            </dict>
            </plist>

            """
        return engine.lint(path: "App.app/PlugIns/Ext.appex/Info.plist", bytes: Array(text.utf8))
    }

    @Test("every listed point is accepted", arguments: ExtensionPointCatalog.identifiers)
    func accepted(_ identifier: String) throws {
        #expect(try Self.findings(identifier).isEmpty, "\(identifier)")
    }

    @Test("a near miss of each point is refused and the point suggested", arguments: ExtensionPointCatalog.identifiers)
    func nearMiss(_ identifier: String) throws {
        // Swap the last two characters: one transposition, never another listed identifier.
        var chars = Array(identifier)
        chars.swapAt(chars.count - 1, chars.count - 2)
        let typo = String(chars)
        let found = try Self.findings(typo)
        #expect(found.map(\.ruleID) == ["extension.point"], "\(typo)")
        #expect(found.first?.message == "NSExtensionPointIdentifier \"\(typo)\" is not one of Apple's extension points; did you mean \"\(identifier)\"?")
        #expect(found.first?.location == .text(line: 8, column: 3))
    }

    @Test func extensionKitPointsAreNotChecked() throws {
        #expect(try Self.findings("com.example.app.filters", container: "EXAppExtensionAttributes", key: "EXExtensionPointIdentifier").isEmpty)
    }

    @Test("the list is well-formed and names its source")
    func wellFormed() {
        let ids = ExtensionPointCatalog.identifiers
        #expect(Set(ids).count == ids.count, "an identifier is listed twice")
        #expect(ids.count >= 40)
        for point in ExtensionPointCatalog.points {
            #expect(point.identifier.hasPrefix("com.apple."), "\(point.identifier)")
            #expect(!point.identifier.contains(" ") && !point.name.isEmpty)
        }
        #expect(ExtensionPointCatalog.source.url.hasPrefix("https://developer.apple.com/documentation/"))
        #expect(ExtensionPointCatalog.source.read.hasPrefix("20"))
    }
}
