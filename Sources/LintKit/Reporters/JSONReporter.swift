import JSONWriter

/// A JSON array of findings: `file`, `line`/`column` or `offset`, `severity`, `rule`,
/// `message`, and `fix` (what `--fix` would do) when there is one.
///
/// Written with `JSONWriter`, which keeps each finding's keys in this order; LintKit does not
/// import Foundation.
public struct JSONReporter: Reporter {
    public static let identifier = "json"

    public init() {}

    public func render(_ findings: [Finding]) -> String {
        let rows: [JSONValue] = findings.map { f in
            var row: [JSONMember] = [JSONMember("file", .string(f.file))]
            switch f.location {
            case .text(let l, let c)?: row += [JSONMember("line", .number(l)), JSONMember("column", .number(c))]
            case .byteOffset(let o)?: row.append(JSONMember("offset", .number(o)))
            case .line(let l)?: row.append(JSONMember("line", .number(l)))
            case nil: break
            }
            row += [JSONMember("severity", .string(f.severity.rawValue)), JSONMember("rule", .string(f.ruleID)),
                    JSONMember("message", .string(f.message))]
            if let fix = f.fix { row.append(JSONMember("fix", .string(fix.description))) }
            return .object(row)
        }
        return JSONWriter.text(.array(rows))
    }
}
