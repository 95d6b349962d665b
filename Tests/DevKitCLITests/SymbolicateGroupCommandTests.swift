import DevKitTestSupport
import Foundation
import Testing

/// `devkit symbolicate --group` end to end on Samples/crash/group
/// (Scripts/fixtures/make-crash-group-samples: sixteen logs in six formats, a truncated
/// `.ips`, three files that are no crash log) against the crashy Mach-O fixtures: golden text,
/// JSON and HTML; the JSON read back by a JSON parser, the HTML by Python's html.parser and
/// xmllint; exit statuses and usage errors.
@Suite struct SymbolicateGroupCommandTests {
    static let fixtures = "Tests/CrashSymbolicationTests/Fixtures"
    static let directory = "Samples/crash/group"
    /// What every run over the directory says on stderr: the truncated log, then the status line.
    static let stderr = """
        Samples/crash/group/ios/truncated.ips:9: warning: the body is not valid JSON: unexpected end of input: object opened at 7:16 is not closed; not grouped
        error: 1 of 17 crash logs could not be read (warnings above); the others are grouped

        """

    static func group(_ format: String, _ inputs: [String] = [directory]) throws -> CLI.Result {
        try CLI.run(["symbolicate", "--no-cache", "--group", "--format", format, "-s", fixtures] + inputs)
    }

    /// The truncated log is one warning with its line; the others are still grouped and
    /// printed, and the partial failure exits 2.
    @Test(arguments: ["text", "json", "html"])
    func directoryGoldens(_ format: String) throws {
        let r = try Self.group(format)
        #expect(r.status == 2)
        #expect(r.stderr == Self.stderr)
        try CLI.assertSnapshot(r.stdout, named: "symbolicate-group.\(format == "text" ? "txt" : format)")
    }

    @Test func jsonReadsBackAndCountsEveryLog() throws {
        let r = try Self.group("json")
        let root = try #require(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any])
        #expect(root["logs"] as? Int == 16)
        #expect(root["skipped"] as? Int == 3)  // README.md, notes.json, screenshot.png
        let unreadable = try #require(root["unreadable"] as? [[String: Any]])
        #expect(unreadable.count == 1 && unreadable[0]["file"] as? String == "Samples/crash/group/ios/truncated.ips" && unreadable[0]["line"] as? Int == 9)
        let groups = try #require(root["groups"] as? [[String: Any]])
        #expect(groups.map { $0["count"] as? Int ?? 0 }.reduce(0, +) == 16)
        #expect(groups.map { $0["count"] as? Int ?? 0 } == [6, 3, 2, 2, 1, 1, 1])

        // One crash in five formats and two architectures (arm64 and x86_64 UUIDs): one group,
        // its functions from the dSYMs, its dates the earliest and latest in UTC.
        let nullDereference = groups[0]
        #expect(nullDereference["signature"] as? String == "EXC_BAD_ACCESS (SIGSEGV) at crashy load_model < crashy controller < crashy start")
        #expect(Self.names(nullDereference["formats"], "format") == ["apple-text", "ips", "kscrash", "metrickit"])
        #expect(Self.counts(nullDereference["formats"]) == [2, 2, 1, 1])
        #expect(Self.names(nullDereference["appVersions"], "version") == ["1.1 (8)", "1.0 (7)", "1.2 (9)"])
        #expect(Self.names(nullDereference["osVersions"], "version").contains("macOS 14.1 (23B74)"))
        #expect(nullDereference["first"] as? String == "2026-10-30T00:00:00Z")  // KSCrash 1793318400
        #expect(nullDereference["last"] as? String == "2026-11-24T00:00:00Z")  // the MetricKit payload's timeStampBegin
        #expect(nullDereference["example"] as? String == "Samples/crash/group/metrickit/payload-2026-11-24.json")

        // The watchdog: .ips, .crash and a MetricKit diagnostic without a date.
        let watchdog = groups[1]
        #expect(watchdog["exception"] as? String == "EXC_CRASH (SIGKILL) 0x8badf00d")
        #expect(watchdog["undated"] as? Int == 1)
        #expect(watchdog["first"] as? String == "2026-11-10T07:00:00Z" && watchdog["last"] as? String == "2026-11-20T23:59:59Z")
        // The same exception and stack with another termination code is another crash.
        #expect(groups.contains { ($0["exception"] as? String) == "EXC_CRASH (SIGKILL) 0xdead10cc" && ($0["count"] as? Int) == 1 })

        // An app whose symbols are not here: image + offset, the same at two load addresses.
        let other = try #require(groups.first { ($0["exception"] as? String) == "EXC_CRASH (SIGABRT)" })
        let frames = try #require(other["frames"] as? [[String: Any]])
        #expect(frames.map { "\($0["image"] ?? "") \($0["offset"] ?? "")" } == ["OtherApp 0x4394", "OtherApp 0x43a8", "OtherApp 0x43c4"])
        #expect(frames.allSatisfy { $0["function"] == nil })
    }

    static func names(_ value: Any?, _ key: String) -> [String] { (value as? [[String: Any]] ?? []).compactMap { $0[key] as? String } }
    static func counts(_ value: Any?) -> [Int] { (value as? [[String: Any]] ?? []).compactMap { $0["count"] as? Int } }

    /// The page balances its tags for Python's html.parser and xmllint, has no script
    /// element (the app version holds `<script>`), and shows that version as written.
    @Test func htmlIsWellFormedAndEscaped() throws {
        let r = try Self.group("html")
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("groups.html")
        try r.stdoutBytes.write(to: page)
        guard let python = TestProcess.find("python3") else { return print("skipped: python3 missing") }
        let check = try TestProcess.run(python, ["-c", Self.htmlCheck, page.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == """
            errors: []
            scripts: 0
            text has the version: True
            rows: 8

            """)
        if let xmllint = TestProcess.find("xmllint") {
            let lint = try TestProcess.run(xmllint, ["--html", "--noout", page.path])
            #expect(lint.status == 0 && lint.stderr.isEmpty, "\(lint.stderr)")
        } else {
            print("skipped: xmllint missing (Scripts/install-deps installs libxml2-utils)")
        }
    }

    static let htmlCheck = #"""
import sys
from html.parser import HTMLParser
VOID = {"meta", "br", "hr", "img", "link", "input", "col", "wbr"}
class Check(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.scripts, self.text, self.rows = [], [], 0, "", 0
    def handle_starttag(self, tag, attrs):
        if tag == "script": self.scripts += 1
        if tag == "tr": self.rows += 1
        if tag not in VOID: self.stack.append(tag)
    def handle_endtag(self, tag):
        if tag in VOID: return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes %s" % (tag, self.stack[-1] if self.stack else "nothing")); return
        self.stack.pop()
    def handle_data(self, data): self.text += data
check = Check()
check.feed(open(sys.argv[1], encoding="utf-8").read())
check.close()
print("errors:", check.errors + ["<%s> never closed" % t for t in check.stack])
print("scripts:", check.scripts)
print("text has the version:", "2.0 <script>alert(\"x\")</script> & 'beta' (10)" in check.text)
print("rows:", check.rows)
"""#

    /// Logs named one by one, of four formats: one group, exit 0, nothing on stderr.
    @Test func namedLogsOfFourFormatsAreOneGroup() throws {
        let logs = ["crashy.crash", "crashy.ips", "kscrash.json", "metrickit-payload.json"].map { "Samples/crash/\($0)" }
        let r = try Self.group("text", logs)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(r.stdout.hasPrefix("""
            1 group from 4 crash logs

            #1  4 crashes  EXC_BAD_ACCESS (SIGSEGV)
                at crashy load_model < crashy controller < crashy start

            """), "\(r.stdout)")
    }

    /// A file named that is no crash log is a warning (it was meant as one) and exit 2; an
    /// empty directory has no logs: exit 2 with one line.
    @Test func namedNonLogAndEmptyDirectory() throws {
        let r = try Self.group("text", ["Samples/crash/group/README.md", "Samples/crash/crashy.crash"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("Samples/crash/group/README.md: warning: not a crash log devkit groups"), "\(r.stderr)")
        #expect(r.stdout.hasPrefix("1 group from 1 crash log (1 log unreadable)\n"))

        let empty = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try Self.group("text", [empty.path])
        #expect(none.status == 2)
        #expect(none.stderr == "error: no crash logs found in \(empty.path) (0 files skipped: not crash logs)\n")
    }

    /// Formats of the other mode and --binary are usage errors, whichever parser reads the line.
    @Test(arguments: [
        ["symbolicate", "--group", "--binary", "a.out", "Samples/crash/group"],
        ["symbolicate", "--group", "--format", "same", "Samples/crash/group"],
        ["symbolicate", "--format", "html", "Samples/crash/crashy.crash"],
        ["symbolicate", "--group"],
        ["symbolicate", "--group", "--load-address", "0x1000", "Samples/crash/group"],
    ])
    func usageErrors(_ arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("Error:") || r.stderr.contains("error:"), "\(r.stderr)")
    }
}
