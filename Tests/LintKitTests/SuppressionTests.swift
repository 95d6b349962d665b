import LintKit
import PlistChecks
import PropertyList
import Testing

/// `<!-- devkit:disable … -->` comments: next entry, whole file, all rules.
@Suite struct SuppressionTests {
    func findings(_ body: String) throws -> [String] {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \(body)
            </dict>
            </plist>

            """
        let engine = try LintEngine(registry: PlistRules.registry)
        return engine.lint(path: "App.entitlements", bytes: Array(text.utf8)).map { "\($0.ruleID)@\($0.location.map { "\($0)" } ?? "-")" }
    }

    static let twoBad = "<key>aps-environment</key>\n<string>prod</string>\n<key>com.apple.developer.associated-domain</key>\n<array/>"

    @Test func unsuppressed() throws {
        #expect(try findings(Self.twoBad).count == 2)
    }

    @Test func nextEntryOnly() throws {
        let result = try findings("<!-- devkit:disable entitlements.aps-environment -->\n" + Self.twoBad)
        #expect(result == ["entitlements.unknown-key@7:1"])
    }

    @Test func otherRuleNotSilenced() throws {
        #expect(try findings("<!-- devkit:disable entitlements.unknown-key -->\n" + Self.twoBad).count == 2)
    }

    @Test func allRulesForTheEntry() throws {
        let result = try findings("<key>aps-environment</key>\n<string>prod</string>\n<!-- devkit:disable -->\n<key>com.apple.developer.associated-domain</key>\n<array/>")
        #expect(result.map { $0.split(separator: "@")[0] } == ["entitlements.aps-environment"])
    }

    @Test func wholeFile() throws {
        #expect(try findings(Self.twoBad + "\n<!-- devkit:disable-file entitlements.aps-environment, entitlements.unknown-key -->").isEmpty)
    }

    @Test func beforeTheRootCoversTheFile() throws {
        let text = "<?xml version=\"1.0\"?>\n<!-- devkit:disable entitlements.unknown-key -->\n<plist version=\"1.0\">\n<dict>\n<key>bogus.key</key>\n<true/>\n</dict>\n</plist>\n"
        let engine = try LintEngine(registry: PlistRules.registry)
        #expect(engine.lint(path: "App.entitlements", bytes: Array(text.utf8)).isEmpty)
    }

    @Test func parseErrorsOnlyByFileDirective() throws {
        let broken = "<?xml version=\"1.0\"?>\n<!-- devkit:disable-file plist.syntax -->\n<plist version=\"1.0\"><dict><key>a</key></dict></plist>\n"
        let engine = try LintEngine(registry: PlistRules.registry)
        #expect(engine.lint(path: "x.plist", bytes: Array(broken.utf8)).isEmpty)
        let notSilenced = broken.replacingOccurrences(of: "disable-file", with: "disable")
        #expect(engine.lint(path: "x.plist", bytes: Array(notSilenced.utf8)).map(\.ruleID) == ["plist.syntax"])
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
