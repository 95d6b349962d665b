import Foundation
import LintConfigFile
import LintKit
import PlistChecks
import Testing

/// `devkit lint`'s front end: flags checked against the registry, `--project-dir` and `--app`
/// read, paths walked and linted, missing ones reported as input errors.
@Suite struct PlistLintFrontendTests {
    static let noConfig = RuleSelection(ignoresConfigFiles: true)

    func message(_ frontend: PlistLintFrontend) -> String? {
        do { _ = try frontend.lint([], jobs: 1, fix: false) } catch { return error.description }
        return nil
    }

    @Test func unknownRuleSuggestsTheNearest() {
        let frontend = PlistLintFrontend(selection: RuleSelection(enabled: ["infoplist.short-version"], ignoresConfigFiles: true))
        #expect(message(frontend) == "error: unknown rule \"infoplist.short-version\"; did you mean \"infoplist.short-version-format\"? (devkit lint --list-rules lists them)")
    }

    @Test func projectDirMustBeADirectory() {
        let frontend = PlistLintFrontend(selection: Self.noConfig, projectDirectory: "/nonexistent-devkit-dir")
        #expect(message(frontend) == "/nonexistent-devkit-dir: error: not a directory (--project-dir)")
    }

    @Test func unreadableAppInfoNamesTheFile() {
        let frontend = PlistLintFrontend(selection: Self.noConfig, appInfoPath: "/nonexistent-devkit-dir/Info.plist")
        #expect(message(frontend)?.hasPrefix("/nonexistent-devkit-dir/Info.plist: error: ") == true)
    }

    @Test func lintsFilesAndReportsMissingPaths() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-frontend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let info = directory.appendingPathComponent("Info.plist").path
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleShortVersionString</key><string>1.0 beta</string></dict></plist>
            """.utf8).write(to: URL(fileURLWithPath: info))
        let missing = directory.appendingPathComponent("Missing.plist").path
        let result = try PlistLintFrontend(selection: Self.noConfig).lint([info, missing], jobs: 2, fix: false)
        #expect(result.findings.contains { $0.ruleID == "infoplist.short-version-format" && $0.file == info })
        #expect(result.inputErrors == ["\(missing): error: no such file or directory"])
        #expect(result.activeRules.contains { $0.id == "infoplist.short-version-format" })
        #expect(result.hasFailures(strict: false))
    }
}
