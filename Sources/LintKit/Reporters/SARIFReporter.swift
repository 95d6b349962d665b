import Diagnostics
import JSONWriter

/// SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format), the format GitHub code
/// scanning and most CI dashboards import: one run, the rules that ran in
/// `tool.driver.rules` (with summary, rationale as help text, default level and category),
/// one result per finding pointing at `region.startLine`/`startColumn` (or `byteOffset`).
///
/// Written with `JSONWriter`, as `JSONReporter` is, which keeps keys in the order written
/// here, so the log is the same on every run; LintKit does not import Foundation.
public struct SARIFReporter: Reporter {
    public static let identifier = "sarif"

    public var toolVersion: String

    public init(toolVersion: String = "0.0.0") {
        self.toolVersion = toolVersion
    }

    public func render(_ findings: [Finding]) -> String { render(findings, rules: []) }

    public func render(_ findings: [Finding], rules: [RuleDescription]) -> String {
        // Rules the findings name but the caller did not describe still get an entry.
        var described = rules
        for id in findings.map(\.ruleID) where !described.contains(where: { $0.id == id }) {
            described.append(RuleDescription(id: id, category: RuleCategory(rawValue: "other"), severity: .warning,
                                             summary: id, rationale: "", kinds: [], triggering: [], nonTriggering: []))
        }
        let ruleIndex = Dictionary(described.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let driver: JSONValue = [
            "name": .string("devkit"),
            "version": .string(toolVersion),
            "rules": .array(described.map(Self.rule)),
        ]
        let results: [JSONValue] = findings.map { finding in
            var result: [JSONMember] = [
                JSONMember("ruleId", .string(finding.ruleID)),
                JSONMember("ruleIndex", .number(ruleIndex[finding.ruleID] ?? 0)),
                JSONMember("level", .string(Self.level(finding.severity))),
                JSONMember("message", ["text": .string(finding.message)]),
            ]
            var physical: [JSONMember] = [JSONMember("artifactLocation", ["uri": .string(Self.uri(finding.file))])]
            switch finding.location {
            case .text(let line, let column)?:
                physical.append(JSONMember("region", ["startLine": .number(line), "startColumn": .number(column)]))
            case .byteOffset(let offset)?:
                physical.append(JSONMember("region", ["byteOffset": .number(offset)]))
            case .line(let line)?:
                physical.append(JSONMember("region", ["startLine": .number(line)]))
            case nil: break
            }
            result.append(JSONMember("locations", [["physicalLocation": .object(physical)]]))
            if let fix = finding.fix {
                result.append(JSONMember("properties", ["fix": .string(fix.description)]))
            }
            return .object(result)
        }
        let log: JSONValue = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [["tool": ["driver": driver], "results": .array(results)]],
        ]
        return JSONWriter.text(log)
    }

    static func rule(_ rule: RuleDescription) -> JSONValue {
        var help = rule.summary
        if !rule.rationale.isEmpty { help += "\n\n" + rule.rationale }
        return [
            "id": .string(rule.id),
            "name": .string(rule.id),
            "shortDescription": ["text": .string(rule.summary)],
            "fullDescription": ["text": .string(rule.rationale.isEmpty ? rule.summary : rule.rationale)],
            "help": ["text": .string(help)],
            "defaultConfiguration": ["level": .string(level(rule.severity)), "enabled": .bool(rule.isEnabledByDefault)],
            "properties": ["category": .string(rule.category.rawValue), "fixable": .bool(rule.isFixable)],
        ]
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// A URI reference as SARIF wants (RFC 3986): relative paths stay relative, absolute ones
    /// become `file://` URIs; characters other than path characters are percent-encoded.
    static func uri(_ path: String) -> String {
        var out = path.hasPrefix("/") ? "file://" : ""
        for byte in path.utf8 {
            let c = Character(UnicodeScalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber || "/-._~".contains(c)) {
                out.append(c)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
