import DevKitTestSupport
import Foundation
import Testing

/// `devkit symbolicate CRASHLOG` end to end on corpus crash logs: the parsed report printed
/// (frames as the log wrote them; no symbolication yet).
@Suite struct SymbolicateCrashLogCommandTests {
    static let corpus = "../shared/corpus/crash"

    static var corpusPresent: Bool {
        let present = FileManager.default.fileExists(atPath: CLI.repoRoot.appendingPathComponent(corpus).path)
        if !present { print("skipped: ../shared/corpus not present") }
        return present
    }

    @Test func summaryOfAnIPSLog() throws {
        guard Self.corpusPresent else { return }
        let r = try CLI.run(["symbolicate", "\(Self.corpus)/ips/lldb-multithread-test.ips"])
        #expect(r.status == 0, "\(r.stderr)")
        try CLI.assertSnapshot(r.stdout, named: "symbolicate-crash-multithread.txt")
    }

    @Test func jsonOfATextLogIsValidJSONWithEveryThread() throws {
        guard Self.corpusPresent else { return }
        let r = try CLI.run(["symbolicate", "--format", "json", "\(Self.corpus)/apple/lldb-altered_threadState.crash"])
        #expect(r.status == 0, "\(r.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any]
        #expect((parsed?["threads"] as? [Any])?.count == 1)
        try CLI.assertSnapshot(r.stdout, named: "symbolicate-crash-threadstate.json")
    }

    @Test func warningsNameFileAndLine() throws {
        guard Self.corpusPresent else { return }
        let r = try CLI.run(["symbolicate", "\(Self.corpus)/ips/lldb-a.out.ips"])
        #expect(r.status == 2)
        #expect(r.stderr == "\(Self.corpus)/ips/lldb-a.out.ips:128: error: the body is not valid JSON: unexpected '@': expected a JSON value\n")
    }

    @Test func aFileThatIsNoCrashLogExits2() throws {
        let r = try CLI.run(["symbolicate", "Package.swift"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("Package.swift: error: not an Apple crash report"))
    }

    @Test func twoCrashLogsAreAUsageError() throws {
        let r = try CLI.run(["symbolicate", "a.crash", "b.crash"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("or one crash log"))
    }
}
