import LintConfigFile
import LintKit
import PlistChecks
import PropertyList
import Testing

/// `.devkit.yml` parsing, precedence (rule defaults < config file < command line), globs.
@Suite struct ConfigFileTests {
    static let infoPlist = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>CFBundleShortVersionString</key>
        \t<string>1.0 beta</string>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSAllowsArbitraryLoads</key>
        \t\t<true/>
        \t</dict>
        </dict>
        </plist>

        """.utf8)

    func lint(_ configuration: LintConfiguration, path: String = "App/Info.plist", cwd: String = "/project") throws -> [String] {
        let engine = try LintEngine(registry: PlistRules.registry, configuration: configuration, currentDirectory: cwd)
        return engine.lint(path: path, bytes: Self.infoPlist).map { "\($0.ruleID):\($0.severity.rawValue)" }
    }

    @Test func defaults() throws {
        #expect(try lint(LintConfiguration()) == ["infoplist.required-keys:error", "infoplist.short-version-format:error", "infoplist.arbitrary-loads:warning"])
    }

    @Test func fileSettingsThenCommandLine() throws {
        var configuration = try LintConfigFile.parse("""
            lint:
              disabled_rules: [infoplist.required-keys, infoplist.short-version-format]
              severity:
                infoplist.arbitrary-loads: error
            provision:
              anything: [ignored, by, lint]
            """, source: "/project/.devkit.yml", baseDirectory: "/project")
        #expect(try lint(configuration) == ["infoplist.arbitrary-loads:error"])
        // The command line wins over the file: --enable re-enables a disabled rule.
        configuration.apply(enable: ["infoplist.short-version-format"], disable: ["infoplist.arbitrary-loads"])
        #expect(try lint(configuration) == ["infoplist.short-version-format:error"])
    }

    @Test func onlyRulesAndOffByDefault() throws {
        var configuration = try LintConfigFile.parse("lint:\n  only_rules: infoplist.arbitrary-loads\n", source: "c", baseDirectory: "/project")
        #expect(try lint(configuration) == ["infoplist.arbitrary-loads:warning"])
        configuration = try LintConfigFile.parse("lint:\n  enabled_rules: [plist.non-canonical-format]\n  severity: {infoplist.arbitrary-loads: info}\n", source: "c", baseDirectory: "/project")
        #expect(try lint(configuration).contains("plist.non-canonical-format:warning"))
        #expect(try lint(configuration).contains("infoplist.arbitrary-loads:note"))
    }

    @Test func kindOverrideAndRuleOptions() throws {
        // Lint the file as entitlements: the Info.plist rules no longer apply.
        let configuration = try LintConfigFile.parse("""
            lint:
              kinds: {"App/*.plist": entitlements}
              rules:
                entitlements.unknown-key: {known_keys: [NSAppTransportSecurity]}
            """, source: "c", baseDirectory: "/project")
        #expect(try lint(configuration) == ["entitlements.unknown-key:warning"])
        // The glob is relative to the config's directory: from elsewhere it does not match.
        #expect(try lint(configuration, path: "/other/App/Info.plist").count == 3)
    }

    @Test func includeExcludeGlobs() throws {
        let configuration = try LintConfigFile.parse("lint:\n  exclude: [Pods, \"**/Generated/*.plist\"]\n  include: [\"App/**\"]\n", source: "c", baseDirectory: "/project")
        let engine = try LintEngine(registry: PlistRules.registry, configuration: configuration, currentDirectory: "/project/App")
        #expect(engine.isExcluded("../Pods/X/Info.plist"))
        #expect(engine.isExcluded("Sub/Generated/a.plist"))
        #expect(!engine.isExcluded("Info.plist"))
        #expect(engine.walkIncludes("Info.plist"))
        #expect(!engine.walkIncludes("../Other/Info.plist"))
        #expect(!engine.walkIncludes("notes.txt"))
    }

    /// `suppress:` silences rules by file and key path, for JSON files that cannot hold comments.
    @Test func suppressByPathAndKeyPath() throws {
        let json = Array(#"{"aps-environment": "prod", "com.apple.developer.associated-domain": [], "keychain-access-groups": ["x"]}"#.utf8)
        func lint(_ yaml: String, path: String = "App/App.entitlements", bytes: [UInt8] = json) throws -> [String] {
            let configuration = try LintConfigFile.parse(yaml, source: "c", baseDirectory: "/project")
            let engine = try LintEngine(registry: PlistRules.registry, configuration: configuration, currentDirectory: "/project")
            return engine.lint(path: path, bytes: bytes).map(\.ruleID)
        }
        let all = try lint("lint:\n  suppress: {}\n")
        #expect(all.contains("entitlements.aps-environment"))
        #expect(all.contains("entitlements.unknown-key"))
        // One entry, every rule: the other entries keep their findings.
        #expect(try lint("lint:\n  suppress:\n    \"App/*.entitlements#aps-environment\": []\n") == all.filter { $0 != "entitlements.aps-environment" })
        // A key path whose entry has another rule's finding silences nothing there.
        #expect(try lint("lint:\n  suppress:\n    \"**/*.entitlements#aps-environment\": [entitlements.unknown-key]\n") == all)
        // Whole file, one rule.
        #expect(try lint("lint:\n  suppress:\n    App.entitlements: entitlements.unknown-key\n") == all.filter { $0 != "entitlements.unknown-key" })
        // The glob is relative to the config file: another directory is not matched.
        #expect(try lint("lint:\n  suppress:\n    \"App/*.entitlements\": []\n", path: "/elsewhere/App/App.entitlements") == all)
        // A syntax error only by a whole-file entry.
        let broken = Array(#"{"a": }"#.utf8)
        #expect(try lint("lint:\n  suppress:\n    \"App/App.entitlements#a\": []\n", bytes: broken) == ["plist.syntax"])
        #expect(try lint("lint:\n  suppress:\n    \"App/App.entitlements\": [plist.syntax]\n", bytes: broken).isEmpty)
    }

    @Test func suppressNamesOnlyKnownRules() throws {
        let configuration = try LintConfigFile.parse("lint:\n  suppress: {\"*.json\": [xcstrings.stal]}\n", source: "c", baseDirectory: "/")
        #expect(throws: LintConfigurationError.self) { try LintEngine(registry: PlistRules.registry, configuration: configuration) }
    }

    @Test(arguments: [
        ("lint:\n  disabled_rules: [infoplist.short-version]\n", "unknown rule \"infoplist.short-version\" in disabled_rules; did you mean \"infoplist.short-version-format\"?"),
        ("lint:\n  severity: {infoplist.arbitrary-loads: fatal}\n", "c:2: error: unknown severity \"fatal\" (error, warning or info)"),
        ("lint:\n  disable_rules: [x]\n", "c:2: error: unknown lint setting \"disable_rules\""),
        ("lint:\n  kinds: {\"*.x\": manifest}\n", "c:2: error: unknown file kind \"manifest\""),
        ("lint:\n  rules: {plist.large-data: {max: 3}}\n", "rule \"plist.large-data\" has no option \"max\" (its options: max_bytes)"),
        ("lint: [\n", "c:2:1: error: not valid YAML"),
    ])
    func errorsNameTheProblem(_ text: String, _ expected: String) throws {
        let message: String
        do {
            let configuration = try LintConfigFile.parse(text, source: "c", baseDirectory: "/")
            _ = try LintEngine(registry: PlistRules.registry, configuration: configuration)
            Issue.record("accepted \(text)")
            return
        } catch {
            message = error.description
        }
        #expect(message.contains(expected), "\(message)")
    }
}
