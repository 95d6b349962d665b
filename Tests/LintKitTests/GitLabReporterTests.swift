import Foundation
import LintKit
import PropertyList
import Testing

/// The GitLab Code Quality reporter: golden output, every object checked field by field
/// against what GitLab requires (read back with Foundation's JSON parser, not devkit's), and
/// fingerprints unique in a report and stable across runs and line moves.
@Suite struct GitLabReporterTests {
    @Test func golden() {
        #expect(GitLabReporter().render(ReporterFixtures.findings) == #"""
            [
              {
                "description": "CFBundleShortVersionString \"1.4.2.1\" is not <1.2.3> & co",
                "check_name": "infoplist.short-version-format",
                "fingerprint": "64fd0c0d74d0bcf75dd26470fb14d55b",
                "severity": "major",
                "location": {
                  "path": "App/Info.plist",
                  "lines": {
                    "begin": 13
                  }
                }
              },
              {
                "description": "it's \"empty\" — café",
                "check_name": "infoplist.usage-description",
                "fingerprint": "bb7f5f90dbcba0fa6ee26c5284520135",
                "severity": "minor",
                "location": {
                  "path": "App/Info.plist",
                  "lines": {
                    "begin": 20
                  }
                }
              },
              {
                "description": "offset 0x163: binary property list",
                "check_name": "plist.binary-format",
                "fingerprint": "aae802b1e787720c6f29e401921053ea",
                "severity": "info",
                "location": {
                  "path": "Build/Settings.plist",
                  "lines": {
                    "begin": 1
                  }
                }
              },
              {
                "description": "bad byte \u0001 here",
                "check_name": "plist.syntax",
                "fingerprint": "725467f88c060a5f7087aafe129ee293",
                "severity": "major",
                "location": {
                  "path": "R&D <old>/App.entitlements",
                  "lines": {
                    "begin": 1
                  }
                }
              }
            ]

            """#)
    }

    @Test func emptyReport() {
        #expect(GitLabReporter().render([]) == "[]\n")
    }

    /// The issues of a report as Foundation reads them.
    static func issues(_ findings: [Finding]) throws -> [[String: Any]] {
        let parsed = try JSONSerialization.jsonObject(with: Data(GitLabReporter().render(findings).utf8))
        return try #require(parsed as? [[String: Any]])
    }

    static func fingerprints(_ findings: [Finding]) throws -> [String] {
        try issues(findings).map { try #require($0["fingerprint"] as? String) }
    }

    /// GitLab's Code Quality report: each issue has a non-empty `description`, `check_name`
    /// and `fingerprint` (strings), a `severity` among GitLab's five, and `location.path`
    /// (string) with `location.lines.begin` (an integer from 1); nothing else.
    @Test func everyIssueHasGitLabsRequiredFields() throws {
        let issues = try Self.issues(ReporterFixtures.findings)
        #expect(issues.count == ReporterFixtures.findings.count)
        for issue in issues {
            #expect(Set(issue.keys) == ["description", "check_name", "fingerprint", "severity", "location"])
            for key in ["description", "check_name", "fingerprint"] {
                #expect(((issue[key] as? String)?.isEmpty ?? true) == false, "\(key) in \(issue)")
            }
            let severity = try #require(issue["severity"] as? String)
            #expect(["info", "minor", "major", "critical", "blocker"].contains(severity))
            let location = try #require(issue["location"] as? [String: Any])
            #expect(Set(location.keys) == ["path", "lines"])
            #expect(location["path"] is String)
            let lines = try #require(location["lines"] as? [String: Any])
            #expect(Set(lines.keys) == ["begin"])
            let begin = try #require(lines["begin"] as? Int)
            #expect(begin >= 1)
        }
        // Foundation reads 1.0 as an Int too: the text itself holds integers only.
        let text = GitLabReporter().render(ReporterFixtures.findings)
        let begins = text.split(separator: "\n").filter { $0.contains("\"begin\"") }
        #expect(begins.count == issues.count)
        #expect(begins.allSatisfy { $0.wholeMatch(of: /\s*"begin": [1-9][0-9]*/) != nil }, "\(begins)")
    }

    @Test func fingerprintsAreUniqueAndLookLikeDigests() throws {
        let duplicated = ReporterFixtures.findings + ReporterFixtures.findings
        let prints = try Self.fingerprints(duplicated)
        #expect(Set(prints).count == prints.count, "\(prints)")
        for print in prints {
            #expect(print.count == 32 && print.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(print)")
        }
    }

    /// The same findings give the same fingerprints on every run (no per-process seed), and a
    /// finding's fingerprint does not depend on the other findings in the report.
    @Test func fingerprintsAreStable() throws {
        let all = try Self.fingerprints(ReporterFixtures.findings)
        #expect(try Self.fingerprints(ReporterFixtures.findings) == all)
        #expect(try Self.fingerprints(Array(ReporterFixtures.findings.reversed())) == all.reversed())
        #expect(try Self.fingerprints([ReporterFixtures.findings[1]]) == [all[1]])
        // Written here so that a change to the hash, or to what it covers, is seen.
        #expect(all[0] == "64fd0c0d74d0bcf75dd26470fb14d55b")
    }

    /// Lines added above a finding move it but do not change its fingerprint (it hashes the
    /// key path); another key path, rule, file or message does.
    @Test func fingerprintFollowsTheKeyPathNotTheLine() throws {
        let original = ReporterFixtures.findings[0]
        var moved = original
        moved.location = .text(line: 40, column: 6)
        var otherKey = original, otherRule = original, otherFile = original, otherMessage = original
        otherKey.keyPath = KeyPath(["CFBundleVersion"])
        otherRule.ruleID = "infoplist.bundle-version-format"
        otherFile.file = "Other/Info.plist"
        otherMessage.message += "!"
        let prints = try Self.fingerprints([original, moved, otherKey, otherRule, otherFile, otherMessage]).map { [$0] }
        // `moved` is a duplicate of `original` in one report, so compare reports of one finding.
        let single = try [original, moved, otherKey, otherRule, otherFile, otherMessage].map { try Self.fingerprints([$0]) }
        #expect(single[0] == single[1])
        #expect(Set(single.dropFirst().map { $0[0] }).count == 5)
        #expect(prints[0] != prints[1], "two identical findings in one report still differ")
    }

    /// A key path component holding a dot is not the same key path as two components.
    @Test func keyPathComponentsAreHashedApart() throws {
        var dotted = ReporterFixtures.findings[0], split = dotted
        dotted.keyPath = KeyPath(["a.b"])
        split.keyPath = KeyPath(["a", "b"])
        #expect(try Self.fingerprints([dotted]) != Self.fingerprints([split]))
    }
}
