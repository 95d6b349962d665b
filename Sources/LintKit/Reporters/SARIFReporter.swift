import Diagnostics
import PropertyList

/// SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format), the format GitHub code
/// scanning and most CI dashboards import: one run, the rules that ran in
/// `tool.driver.rules` (with summary, rationale as help text, default level and category),
/// one result per finding pointing at `region.startLine`/`startColumn` (or `byteOffset`).
///
/// Rendered through the property-list JSON writer, as `JSONReporter` is, to keep Foundation
/// out of the binary.
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
        let driver: PlistValue = Self.object([
            ("name", .string("devkit")),
            ("version", .string(toolVersion)),
            ("rules", .array(described.map(Self.rule))),
        ])
        let results: [PlistValue] = findings.map { finding in
            var result: [(String, PlistValue)] = [
                ("ruleId", .string(finding.ruleID)),
                ("ruleIndex", .int(Int64(ruleIndex[finding.ruleID] ?? 0))),
                ("level", .string(Self.level(finding.severity))),
                ("message", Self.object([("text", .string(finding.message))])),
            ]
            var physical: [(String, PlistValue)] = [("artifactLocation", Self.object([("uri", .string(Self.uri(finding.file)))]))]
            switch finding.location {
            case .text(let line, let column)?:
                physical.append(("region", Self.object([("startLine", .int(Int64(line))), ("startColumn", .int(Int64(column)))])))
            case .byteOffset(let offset)?:
                physical.append(("region", Self.object([("byteOffset", .int(Int64(offset)))])))
            case .line(let line)?:
                physical.append(("region", Self.object([("startLine", .int(Int64(line)))])))
            case nil: break
            }
            result.append(("locations", .array([Self.object([("physicalLocation", Self.object(physical))])])))
            if let fix = finding.fix {
                result.append(("properties", Self.object([("fix", .string(fix.description))])))
            }
            return Self.object(result)
        }
        let log = Self.object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([Self.object([("tool", Self.object([("driver", driver)])), ("results", .array(results))])])),
        ])
        // Strings, integers and booleans only: the JSON writer cannot fail on them.
        let bytes = (try? PropertyListCoding.write(log, as: .json)) ?? Array("{}\n".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func rule(_ rule: RuleDescription) -> PlistValue {
        var help = rule.summary
        if !rule.rationale.isEmpty { help += "\n\n" + rule.rationale }
        return object([
            ("id", .string(rule.id)),
            ("name", .string(rule.id)),
            ("shortDescription", object([("text", .string(rule.summary))])),
            ("fullDescription", object([("text", .string(rule.rationale.isEmpty ? rule.summary : rule.rationale))])),
            ("help", object([("text", .string(help))])),
            ("defaultConfiguration", object([("level", .string(level(rule.severity))), ("enabled", .bool(rule.isEnabledByDefault))])),
            ("properties", object([("category", .string(rule.category.rawValue)), ("fixable", .bool(rule.isFixable))])),
        ])
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

    static func object(_ pairs: [(String, PlistValue)]) -> PlistValue {
        .dictionary(.init(pairs, uniquingKeysWith: { a, _ in a }))
    }
}
