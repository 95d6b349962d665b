import Foundation

/// A JSON array of findings: `file`, `line`/`column` or `offset`, `severity`, `rule`, `message`.
public struct JSONReporter: Reporter {
    public static let identifier = "json"

    public init() {}

    private struct Row: Encodable {
        var file: String
        var line: Int?
        var column: Int?
        var offset: Int?
        var severity: String
        var rule: String
        var message: String
    }

    public func render(_ findings: [Finding]) -> String {
        let rows = findings.map { f -> Row in
            var row = Row(file: f.file, severity: f.severity.rawValue, rule: f.ruleID, message: f.message)
            switch f.location {
            case .text(let l, let c)?: row.line = l; row.column = c
            case .byteOffset(let o)?: row.offset = o
            case nil: break
            }
            return row
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(rows) else { return "[]\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
