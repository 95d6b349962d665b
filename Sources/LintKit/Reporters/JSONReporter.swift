import PropertyList

/// A JSON array of findings: `file`, `line`/`column` or `offset`, `severity`, `rule`,
/// `message`, and `fix` (what `--fix` would do) when there is one.
///
/// Rendered through the property-list JSON writer, devkit's one JSON serializer; LintKit does
/// not import Foundation.
public struct JSONReporter: Reporter {
    public static let identifier = "json"

    public init() {}

    public func render(_ findings: [Finding]) -> String {
        let rows: [PlistValue] = findings.map { f in
            var row: [(String, PlistValue)] = [("file", .string(f.file))]
            switch f.location {
            case .text(let l, let c)?: row += [("line", .int(Int64(l))), ("column", .int(Int64(c)))]
            case .byteOffset(let o)?: row.append(("offset", .int(Int64(o))))
            case .line(let l)?: row.append(("line", .int(Int64(l))))
            case nil: break
            }
            row += [("severity", .string(f.severity.rawValue)), ("rule", .string(f.ruleID)), ("message", .string(f.message))]
            if let fix = f.fix { row.append(("fix", .string(fix.description))) }
            return .dictionary(.init(uniqueKeysWithValues: row))
        }
        // Strings and integers only: the JSON writer cannot fail on them.
        let bytes = (try? PropertyListCoding.write(.array(rows), as: .json)) ?? Array("[]\n".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }
}
