import Foundation
import LintConfigFile
import LintKit
import PlistChecks
import Testing

/// `--config`, `--no-config`, `--enable` and `--disable` turned into a run's configuration.
@Suite struct RuleSelectionTests {
    func withProject(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-selection-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("App"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("lint:\n  disabled_rules: [infoplist.arbitrary-loads]\n".utf8).write(to: directory.appendingPathComponent(".devkit.yml"))
        try Data("lint:\n  disabled_rules: [infoplist.required-keys]\n".utf8).write(to: directory.appendingPathComponent("other.yml"))
        try body(directory.path)
    }

    @Test func nearestConfigThenFlags() throws {
        try withProject { project in
            let configuration = try RuleSelection(enabled: ["infoplist.arbitrary-loads"], disabled: ["plist.large-data"])
                .configuration(currentDirectory: project + "/App", registry: PlistRules.registry)
            #expect(configuration.source == project + "/.devkit.yml")
            #expect(configuration.enabledRules == ["infoplist.arbitrary-loads"])
            #expect(configuration.disabledRules == ["plist.large-data"])
        }
    }

    @Test func namedConfigIsRelativeToTheCurrentDirectory() throws {
        try withProject { project in
            let configuration = try RuleSelection(configPath: "../other.yml").configuration(currentDirectory: project + "/App")
            #expect(configuration.disabledRules == ["infoplist.required-keys"])
        }
    }

    @Test func noConfigReadsNothing() throws {
        try withProject { project in
            let configuration = try RuleSelection(ignoresConfigFiles: true).configuration(currentDirectory: project)
            #expect(configuration.source == nil && configuration.disabledRules.isEmpty)
        }
    }

    @Test func flagsNamingUnknownRulesAreRefusedOnlyWithARegistry() throws {
        let selection = RuleSelection(disabled: ["no.such-rule"], ignoresConfigFiles: true)
        #expect(throws: LintConfigurationError.self) { try selection.configuration(currentDirectory: "/", registry: PlistRules.registry) }
        #expect(try selection.configuration(currentDirectory: "/").disabledRules == ["no.such-rule"])
    }
}
