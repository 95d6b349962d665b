import LintKit
import PropertyList
import Testing

/// `LintBaseline`: which findings an entry accounts for (rule, file and key path, once
/// each, exact messages first), the file's round trip, and its errors.
@Suite struct LintBaselineTests {
    static func finding(_ rule: String = "infoplist.bundle-version-format", file: String = "App/Info.plist", line: Int = 15,
                        path: [String]? = ["CFBundleVersion"], message: String = "CFBundleVersion \"142 \" is bad") -> Finding {
        Finding(file: file, location: .text(line: line, column: 2), severity: .error, ruleID: rule, message: message, keyPath: path.map(KeyPath.init))
    }

    @Test func acceptedFindingsAreNotReported() {
        let findings = [Self.finding(), Self.finding("plist.key-whitespace", path: ["LSRequiresIPhoneOS "])]
        let result = LintBaseline(findings: findings).filter(findings)
        #expect(result.reported.isEmpty)
        #expect(result.suppressed == 2)
    }

    /// Lines move when the file is edited above the finding: the key path does not.
    @Test func aMovedFindingStillMatches() {
        let baseline = LintBaseline(findings: [Self.finding(line: 15)])
        #expect(baseline.filter([Self.finding(line: 40)]).reported.isEmpty)
    }

    @Test func anotherRuleFileOrKeyPathIsReported() {
        let baseline = LintBaseline(findings: [Self.finding()])
        let others = [Self.finding("infoplist.short-version-format"), Self.finding(file: "Other/Info.plist"),
                      Self.finding(path: ["CFBundleShortVersionString"]), Self.finding(path: nil)]
        #expect(baseline.filter(others).reported == others)
    }

    /// Each entry accounts for one finding: two identical findings and one entry leave one.
    @Test func eachEntryCountsOnce() {
        let baseline = LintBaseline(findings: [Self.finding()])
        let result = baseline.filter([Self.finding(), Self.finding()])
        #expect(result.reported == [Self.finding()])
        #expect(result.suppressed == 1)
    }

    /// Under one key, entries go to the findings with their message first: the new finding
    /// is the one reported, wherever it comes in the run.
    @Test func exactMessagesMatchFirst() {
        let old = Self.finding(path: [], message: "imports _stat")
        let new = Self.finding(path: [], message: "imports _statfs")
        let baseline = LintBaseline(findings: [old])
        #expect(baseline.filter([new, old]).reported == [new])
        #expect(baseline.filter([old, new]).reported == [new])
    }

    /// A value edited under the same key path changes the message only: still accepted.
    @Test func aChangedMessageUnderTheSameKeyStillMatches() {
        let baseline = LintBaseline(findings: [Self.finding(message: "CFBundleVersion \"142 \" is bad")])
        #expect(baseline.filter([Self.finding(message: "CFBundleVersion \"143 \" is bad")]).reported.isEmpty)
    }

    @Test func aLeadingDotSlashIsTheSameFile() {
        let baseline = LintBaseline(findings: [Self.finding(file: "./App/Info.plist")])
        #expect(baseline.filter([Self.finding(file: "App/Info.plist")]).reported.isEmpty)
    }

    /// Written and read back: the same entries, keys in a fixed order, no keyPath when none.
    @Test func fileRoundTrip() throws {
        let findings = [Self.finding(message: "a \"quoted\" \\ message — é"), Self.finding(path: nil), Self.finding(path: ["a.b", "0"])]
        let baseline = LintBaseline(findings: findings)
        #expect(try LintBaseline.parse(Array(baseline.json.utf8), file: "b.json") == baseline)
        #expect(LintBaseline(findings: [Self.finding(path: nil)]).json == """
            {
              "version": 1,
              "findings": [
                {
                  "rule": "infoplist.bundle-version-format",
                  "file": "App/Info.plist",
                  "message": "CFBundleVersion \\"142 \\" is bad"
                }
              ]
            }

            """)
    }

    /// A hand-written entry without a message matches any message.
    @Test func anEntryWithoutMessageMatchesAny() throws {
        let baseline = try LintBaseline.parse(Array(#"{"version": 1, "findings": [{"rule": "infoplist.bundle-version-format", "file": "App/Info.plist", "keyPath": ["CFBundleVersion"]}]}"#.utf8), file: "b.json")
        #expect(baseline.filter([Self.finding()]).reported.isEmpty)
    }

    /// Errors name the file and the place: the line and column of a JSON syntax error, or of
    /// the value at fault in a well-formed file (the object that lacks a key), whose key path
    /// the message names.
    @Test(arguments: [
        ("{\"version\": 1,\n \"findings\": [,]}", "b.json:2:15: error: not a baseline: unexpected ','"),
        (" []", "b.json:1:2: error: not a baseline: the top level must be an object"),
        (#"{"version": 2, "findings": []}"#, "b.json:1:13: error: not a baseline: \"version\" must be 1"),
        (#"{"version": 1}"#, "b.json:1:1: error: not a baseline: \"findings\" must be an array"),
        (#"{"version": 1, "findings": [], "extra": 0}"#, "b.json:1:41: error: not a baseline: unknown key \"extra\""),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"a\", \"file\": \"f\"},\n  {\"rule\": \"r\"}\n]}",
         "b.json:3:3: error: not a baseline: findings.1.file must be a string"),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"[{\\\"\", \"file\": \"f\", \"keyPath\": [\"a\", 1]}]}",
         "b.json:2:44: error: not a baseline: findings.0.keyPath must be an array of strings"),
        ("\u{FEFF}{\"version\": 1, \"findings\": [{\"rule\": \"r\", \"file\": \"f\", \"line\": 3}]}",
         "b.json:1:64: error: not a baseline: findings.0 has an unknown key \"line\""),
        (#"{"version": 1, "findings": [{"rule": "r", "file": "f", "message": ["m"]}]}"#,
         "b.json:1:67: error: not a baseline: findings.0.message must be a string"),
    ])
    func malformedFilesNameTheProblem(_ text: String, _ expected: String) {
        #expect(throws: LintBaselineError.self) { try LintBaseline.parse(Array(text.utf8), file: "b.json") }
        do {
            _ = try LintBaseline.parse(Array(text.utf8), file: "b.json")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error.description)")
        }
    }
}
