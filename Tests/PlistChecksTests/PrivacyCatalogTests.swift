import LintKit
import PlistChecks
import Testing

/// The lists of `PrivacyCatalog` are what the privacy rules check against: every reason
/// code is accepted under its own category and refused under each other one, every data type
/// and purpose is accepted and a near miss of it refused, and each list names its source.
@Suite struct PrivacyCatalogTests {
    static let privacyRules = PlistRules.registry.descriptions.filter { $0.category == .privacy }.map(\.id)

    /// The privacy findings for a manifest with `body` as its root dictionary's content.
    static func findings(_ body: String) throws -> [Finding] {
        var configuration = LintConfiguration()
        configuration.onlyRules = Set(privacyRules)
        let engine = try LintEngine(registry: PlistRules.registry, configuration: configuration)
        return engine.lint(path: "PrivacyInfo.xcprivacy", bytes: Array(RuleExample(body).document.text.utf8))
    }

    static func accessed(_ category: String, _ reasons: [String]) -> String {
        """
        <key>NSPrivacyAccessedAPITypes</key>
        <array><dict>
        <key>NSPrivacyAccessedAPIType</key><string>\(category)</string>
        <key>NSPrivacyAccessedAPITypeReasons</key><array>\(reasons.map { "<string>\($0)</string>" }.joined())</array>
        </dict></array>
        """
    }

    static func collected(_ type: String, _ purposes: [String]) -> String {
        """
        <key>NSPrivacyCollectedDataTypes</key>
        <array><dict>
        <key>NSPrivacyCollectedDataType</key><string>\(type)</string>
        <key>NSPrivacyCollectedDataTypeLinked</key><false/>
        <key>NSPrivacyCollectedDataTypeTracking</key><false/>
        <key>NSPrivacyCollectedDataTypePurposes</key><array>\(purposes.map { "<string>\($0)</string>" }.joined())</array>
        </dict></array>
        """
    }

    @Test("every reason code is accepted under its category and refused under the others", arguments: PrivacyCatalog.apiCategories.map(\.name))
    func reasonCodes(_ name: String) throws {
        let category = try #require(PrivacyCatalog.category(named: name))
        #expect(try Self.findings(Self.accessed(name, category.reasons)).isEmpty)
        for other in PrivacyCatalog.apiCategories where other.name != name {
            for code in other.reasons {
                let found = try Self.findings(Self.accessed(name, [code]))
                #expect(found.map(\.ruleID) == ["privacy.accessed-api-reason"], "\(code) under \(name): \(found.map(\.message))")
                #expect(found.first?.message.contains("is for \(other.name)") == true)
            }
        }
        // A near miss of the category is refused.
        #expect(try Self.findings(Self.accessed(String(name.dropLast()), [category.reasons[0]])).map(\.ruleID) == ["privacy.accessed-api-category"])
    }

    @Test("every data type and purpose is accepted; near misses are refused")
    func dataTypesAndPurposes() throws {
        for type in PrivacyCatalog.dataTypes {
            #expect(try Self.findings(Self.collected(type, PrivacyCatalog.purposes)).isEmpty, "\(type)")
            let found = try Self.findings(Self.collected(type + "s", [PrivacyCatalog.purposes[0]]))
            #expect(found.map(\.ruleID) == ["privacy.collected-data-type"], "\(type)s: \(found.map(\.message))")
        }
        for purpose in PrivacyCatalog.purposes {
            let found = try Self.findings(Self.collected(PrivacyCatalog.dataTypes[0], [purpose.lowercased()]))
            #expect(found.map(\.ruleID) == ["privacy.collected-data-purpose"], "\(purpose): \(found.map(\.message))")
        }
    }

    @Test("the lists are well-formed and name their sources")
    func wellFormed() {
        let codes = PrivacyCatalog.apiCategories.flatMap(\.reasons)
        #expect(Set(codes).count == codes.count, "a reason code belongs to two categories")
        for code in codes {
            let parts = code.split(separator: ".")
            #expect(parts.count == 2 && parts[0].count == 4 && parts[1].allSatisfy(\.isNumber), "\(code)")
        }
        #expect(PrivacyCatalog.apiCategories.count == 5)
        #expect(Set(PrivacyCatalog.dataTypes).count == PrivacyCatalog.dataTypes.count)
        #expect(Set(PrivacyCatalog.commonlyUsedSDKs).count == PrivacyCatalog.commonlyUsedSDKs.count)
        for category in PrivacyCatalog.apiCategories {
            #expect(!category.symbols.isEmpty, "\(category.name) has no symbol")
            for (symbol, api) in category.symbols { #expect(symbol.hasPrefix("_") && !api.isEmpty) }
        }
        for source in [PrivacyCatalog.manifestSource, PrivacyCatalog.dataUseSource, PrivacyCatalog.requiredReasonSource, PrivacyCatalog.sdkSource] {
            #expect(source.url.hasPrefix("https://developer.apple.com/"))
            #expect(source.read.hasPrefix("20"))
        }
    }

    @Test("each manifest key is checked by a rule")
    func manifestKeys() throws {
        for key in PrivacyCatalog.manifestKeys {
            // A key of the wrong type is reported, so the rules read every documented key.
            let found = try Self.findings("<key>\(key)</key>\n<date>2026-01-01T00:00:00Z</date>")
            #expect(found.map(\.ruleID) == ["privacy.value-type"], "\(key): \(found.map(\.message))")
        }
    }
}
