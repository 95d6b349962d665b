@testable import LintConfigFile
import LintKit
import Testing

/// `.devkit.yml` through libyaml's event parser: syntax errors name line and column, hostile
/// nesting and aliases are refused with a position, and nodes keep where they started.
@Suite struct YAMLDocumentTests {
    static func failure(_ text: String) -> String {
        failure(Array(text.utf8))
    }

    static func failure(_ bytes: [UInt8]) -> String {
        do {
            _ = try LintConfigFile.parse(bytes, source: "c", baseDirectory: "/")
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        ("lint: [\n", "c:2:1: error: not valid YAML: did not find expected node content (while parsing a flow node)"),
        ("lint:\n  disabled_rules: [a, b\n", "c:3:1: error: not valid YAML: did not find expected ',' or ']' (while parsing a flow sequence at 2:19)"),
        ("lint:\n\tdisabled_rules: [a]\n", "c:2:1: error: not valid YAML: found character that cannot start any token (while scanning for the next token)"),
        ("lint:\n  severity: {a: error}\n  severity: \"x\n", "c:4:1: error: not valid YAML: found unexpected end of stream (while scanning a quoted scalar at 3:13)"),
        ("lint: {}\n---\nlint: {}\n", "c:2:1: error: not valid YAML: a second document (---) in the file; it must hold one"),
        ("lint:\n  disabled_rules: *rules\n", "c:2:19: error: not valid YAML: *rules names no anchor (&rules) defined before it"),
        ("lint: &a [*a]\n", "c:1:11: error: not valid YAML: *a names no anchor (&a) defined before it"),
    ])
    func syntaxErrorsNameLineAndColumn(_ text: String, _ expected: String) {
        #expect(Self.failure(text) == expected)
    }

    /// Invalid UTF-8 is a reader error with only a byte offset; the line and column come from it.
    @Test func invalidUTF8() {
        let bytes = Array("lint:\n  disabled_rules: [a".utf8) + [0xff] + Array("]\n".utf8)
        #expect(Self.failure(bytes) == "c:2:21: error: not valid YAML: invalid leading UTF-8 octet (byte 0xff)")
    }

    /// libyaml's loader recurses per level; the event parser does not, and the document stops
    /// at its depth limit.
    @Test func deepNestingIsRefused() {
        let text = String(repeating: "[", count: 200_000)
        #expect(Self.failure(text) == "c:1:65: error: not valid YAML: nested deeper than 64 levels")
    }

    /// "Billion laughs": ten levels of ten aliases each would expand to 10^10 nodes; the sixth
    /// (line 6) already expands to 1,111,111.
    @Test func aliasExpansionIsBounded() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            text += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        #expect(Self.failure(text).hasPrefix("c:6:5: error: not valid YAML: aliases expand this node to more than 1048576 nodes"))
    }

    @Test func aliasesAreReferencesToCompleteNodes() throws {
        let configuration = try LintConfigFile.parse("""
            shared: &off [infoplist.required-keys, infoplist.short-version-format]
            lint:
              disabled_rules: *off
            """, source: "c", baseDirectory: "/")
        #expect(configuration.disabledRules == ["infoplist.required-keys", "infoplist.short-version-format"])
    }

    @Test func nodesKeepTheirPositionsAndStyles() throws {
        let document = try YAMLDocument(parsing: Array("lint:\n  rules:\n    r: {a: yes, b: \"yes\", c: [1, 2]}\n".utf8))
        let root = try #require(document.root)
        guard case .mapping(let top) = document[root].content else { Issue.record("not a mapping"); return }
        #expect(document[top[0].key].line == 1 && document[top[0].key].column == 1)
        #expect(document[top[0].value].line == 2 && document[top[0].value].column == 3)
        let reader = LintConfigFile.Reader(source: "c", document: document)
        let rules = try reader.mapping(top[0].value, "lint")
        let options = try reader.mapping(rules[0].1, "rules")
        let values = try reader.mapping(options[0].1, "options").map { try reader.optionValue($0.1) }
        #expect(values == [.bool(true), .string("yes"), .list(["1", "2"])])
        #expect(document[options[0].1].line == 3 && document[options[0].1].column == 8)
    }

    @Test(arguments: ["", "# only a comment\n", "---\n"])
    func emptyFilesConfigureNothing(_ text: String) throws {
        let configuration = try LintConfigFile.parse(text, source: "c", baseDirectory: "/")
        #expect(configuration.disabledRules.isEmpty && configuration.severities.isEmpty)
    }

    /// Semantic errors keep naming the line only (the node's start), as before.
    @Test func semanticErrorsNameTheLine() {
        #expect(Self.failure("lint:\n  severity: {infoplist.arbitrary-loads: fatal}\n") == "c:2: error: unknown severity \"fatal\" (error, warning or info)")
        #expect(Self.failure("- a\n") == "c:1: error: the file must be a mapping (key: value)")
    }
}
