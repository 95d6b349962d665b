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

    // MARK: OpenStep

    func openStepFindings(_ text: String) throws -> [String] {
        let engine = try LintEngine(registry: PlistRules.registry)
        return engine.lint(path: "App.entitlements", bytes: Array(text.utf8)).map { "\($0.ruleID)@\($0.location.map { "\($0)" } ?? "-")" }
    }

    static let openStepTwoBad = "{\n    \"aps-environment\" = prod;\n    \"com.apple.developer.associated-domain\" = ();\n}\n"

    @Test func openStepUnsuppressedHasPositions() throws {
        #expect(try openStepFindings(Self.openStepTwoBad) == ["entitlements.aps-environment@2:5", "entitlements.unknown-key@3:5"])
    }

    @Test func openStepLineCommentNextEntryOnly() throws {
        let text = "{\n    // devkit:disable entitlements.aps-environment\n    \"aps-environment\" = prod;\n    \"com.apple.developer.associated-domain\" = ();\n}\n"
        #expect(try openStepFindings(text) == ["entitlements.unknown-key@4:5"])
    }

    @Test func openStepBlockCommentAllRulesForTheEntry() throws {
        let text = "{\n    \"aps-environment\" = prod;\n    /* devkit:disable */ \"com.apple.developer.associated-domain\" = ();\n}\n"
        #expect(try openStepFindings(text) == ["entitlements.aps-environment@2:5"])
    }

    @Test func openStepWholeFileAndBeforeTheRoot() throws {
        #expect(try openStepFindings("/* devkit:disable-file entitlements.aps-environment, entitlements.unknown-key */\n" + Self.openStepTwoBad).isEmpty)
        // Before the root `{`: the comment names the root, so it covers the file.
        #expect(try openStepFindings("// devkit:disable entitlements.unknown-key\n" + Self.openStepTwoBad) == ["entitlements.aps-environment@3:5"])
    }

    @Test func openStepDirectiveInsideAStringIsNotAComment() throws {
        // Were the string read as a comment, it would silence the entry after it.
        let text = "{\n    \"aps-environment\" = \"// devkit:disable\";\n    \"com.apple.developer.associated-domain\" = ();\n}\n"
        #expect(try openStepFindings(text) == ["entitlements.aps-environment@2:5", "entitlements.unknown-key@3:5"])
    }

    @Test func stringsFileCommentBeforeTheFirstEntryIsThatEntry() throws {
        // A `.strings` file has no braces: its top level starts at the file's start, so the
        // comment names the first entry, not the whole file.
        let text = "// devkit:disable entitlements.unknown-key\n\"com.apple.developer.associated-domain\" = ();\n\"aps-environment\" = prod;\n\"other.key\" = x;\n"
        let result = try openStepFindings(text)
        #expect(result.contains("entitlements.unknown-key@4:1"))
        #expect(!result.contains("entitlements.unknown-key@2:1"))
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
