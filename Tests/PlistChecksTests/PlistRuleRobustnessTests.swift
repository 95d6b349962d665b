import DevKitTestSupport
import LintKit
import PlistChecks
import PropertyList
import Testing

/// Rules see user input: every rule, on every kind, must survive any value shape (wrong
/// types where strings are expected, deep nesting, odd keys) and report positions that exist.
@Suite struct PlistRuleRobustnessTests {
    /// Random value shapes from a seeded generator, so failures reproduce.
    struct Generator {
        var random: SplitMix64
        mutating func next() -> UInt64 { random.next() }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

        /// Keys the rules look for, plus odd ones, so the rules' code paths are reached.
        static let keys = ["CFBundleIdentifier", "CFBundleShortVersionString", "CFBundleVersion", "CFBundlePackageType",
                           "NSCameraUsageDescription", "UIRequiredDeviceCapabilities", "LSApplicationQueriesSchemes",
                           "NSAppTransportSecurity", "NSAllowsArbitraryLoads", "UIMainStoryboardFile", "NSMainNibFile",
                           "get-task-allow", "aps-environment", "application-identifier", "keychain-access-groups",
                           "com.apple.developer.team-identifier", "items", "assets", "metadata", "kind", "url",
                           "bundle-identifier", "bundle-version", "title", "", " x ", "$(X)", "0", "é",
                           "NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes",
                           "NSPrivacyAccessedAPIType", "NSPrivacyAccessedAPITypeReasons", "NSPrivacyCollectedDataType",
                           "NSPrivacyCollectedDataTypePurposes"]
        static let strings = ["", " ", "1.0", "1.2.3.4", "software-package", "software", "https://a/b.ipa", "http://x",
                              "display-image", "full-size-image", "ABCDE.com.x", ".", "$(VAR)", "TODO", "Production", "\u{1F600}",
                              "CA92.1", "C617.1", "NSPrivacyAccessedAPICategoryUserDefaults", "NSPrivacyCollectedDataTypeCrashData"]

        mutating func value(depth: Int) -> PlistValue {
            switch below(depth > 4 ? 6 : 8) {
            case 0: return .string(Self.strings[below(Self.strings.count)])
            case 1: return .int(Int64(bitPattern: next()))
            case 2: return .bool(below(2) == 0)
            case 3: return .double(Double(below(1000)) / 7)
            case 4: return .data(Array(repeating: 7, count: below(16) == 0 ? 70_000 : below(64)))
            case 5: return .date(PlistDate(iso8601: Array("2026-01-02T03:04:05Z".utf8))!)
            case 6: return .array((0..<below(4)).map { _ in value(depth: depth + 1) })
            default:
                var entries: [(String, PlistValue)] = []
                for _ in 0..<below(6) {
                    let key = Self.keys[below(Self.keys.count)]
                    if !entries.contains(where: { $0.0 == key }) { entries.append((key, value(depth: depth + 1))) }
                }
                return .dictionary(.init(uniqueKeysWithValues: entries))
            }
        }
    }

    @Test(arguments: ["Info.plist", "App.entitlements", "manifest.plist", "Settings.plist", "PrivacyInfo.xcprivacy"])
    func randomValuesNeverTrap(_ name: String) throws {
        var configuration = LintConfiguration()
        configuration.enabledRules = Set(PlistRules.registry.descriptions.map(\.id))
        let options = PlistLintOptions(isBuiltProduct: true, configuration: .release, projectFileNames: [], appInfo: .dictionary([:]))
        let engine = try LintEngine(registry: PlistRules.registry, configuration: configuration, options: options)
        var generator = Generator(random: SplitMix64(seed: 42))
        for _ in 0..<300 {
            let value = generator.value(depth: 0)
            guard let bytes = try? PropertyListCoding.write(value, as: .xml) else { continue }
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
            for finding in engine.lint(path: name, bytes: bytes) {
                if case .text(let line, _)? = finding.location { #expect(line >= 1 && line <= lines) }
                if let fix = finding.fix {
                    // Every offered fix applies (the lossless editor accepts it).
                    #expect(throws: Never.self) { try FixApplier.apply([fix], to: bytes) }
                }
            }
        }
    }
}
