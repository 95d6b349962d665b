import Diagnostics
import JSONWriter
import System

/// GitLab Code Quality (a CodeClimate subset), the report a GitLab CI job names under
/// `artifacts:reports:codequality` so merge requests show new and fixed findings: a JSON array
/// of objects with `description`, `check_name` (the rule id), `fingerprint`, `severity`
/// (`major` for errors, `minor` for warnings, `info` for notes) and
/// `location.path`/`location.lines.begin`. Findings without a line (a whole file, or a byte
/// offset in a binary plist, which goes in front of the description) point at line 1, since
/// GitLab requires a line.
///
/// GitLab tells findings apart between the base and the merge request by `fingerprint`, so it
/// must not change when unrelated lines move: it hashes the rule, the file, the key path (the
/// position only for findings that have none, such as a syntax error) and the message, never
/// the line. Two findings that agree on all of those get their occurrence number too, so
/// fingerprints in one report are unique.
///
/// Written with `JSONWriter`, as `JSONReporter` is; LintKit does not import Foundation.
public struct GitLabReporter: Reporter {
    public static let identifier = "gitlab"

    public init() {}

    public func render(_ findings: [Finding]) -> String {
        var occurrences: [String: Int] = [:]
        let issues: [JSONValue] = findings.map { finding in
            var hash = Self.identity(finding)
            let base = hash.hexDigest
            let occurrence = occurrences[base, default: 0]
            occurrences[base] = occurrence + 1
            if occurrence > 0 { hash.combine(field: String(occurrence)) }
            var description = finding.message
            var line = 1
            switch finding.location {
            case .text(let l, _)?, .line(let l)?: line = l
            case .byteOffset(let offset)?: description = "\(SourcePosition.byteOffset(offset)): " + description
            case nil: break
            }
            return [
                "description": .string(description),
                "check_name": .string(finding.ruleID),
                "fingerprint": .string(hash.hexDigest),
                "severity": .string(Self.severity(finding.severity)),
                "location": ["path": .string(finding.file), "lines": ["begin": .number(line)]],
            ]
        }
        return JSONWriter.text(.array(issues))
    }

    /// The hash of what identifies a finding across runs, before any occurrence number.
    static func identity(_ finding: Finding) -> FNV1a128 {
        var hash = FNV1a128()
        hash.combine(field: finding.ruleID)
        hash.combine(field: finding.file)
        if let keyPath = finding.keyPath {
            // The count, then the components one by one, so a key holding a dot differs from
            // two keys.
            hash.combine(field: "keyPath \(keyPath.components.count)")
            for component in keyPath.components { hash.combine(field: component) }
        } else {
            hash.combine(field: "position")
            hash.combine(field: finding.location?.description ?? "")
        }
        hash.combine(field: finding.message)
        return hash
    }

    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: "major"
        case .warning: "minor"
        case .note: "info"
        }
    }
}
