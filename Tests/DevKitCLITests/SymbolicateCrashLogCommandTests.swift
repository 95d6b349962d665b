import DevKitTestSupport
import Foundation
import Testing

/// `devkit symbolicate CRASHLOG...` end to end: the Samples/crash logs against the crashy
/// Mach-O fixtures (summary, same, json goldens), corpus logs, several logs at once, a core
/// dump made at test time, and the errors.
@Suite struct SymbolicateCrashLogCommandTests {
    static let corpus = "../shared/corpus/crash"
    static let fixtures = "Tests/CrashSymbolicationTests/Fixtures"

    static var corpusPresent: Bool {
        let present = FileManager.default.fileExists(atPath: CLI.repoRoot.appendingPathComponent(corpus).path)
        if !present { print("skipped: ../shared/corpus not present") }
        return present
    }

    @Test(arguments: ["summary", "same", "json"], ["crashy.crash", "crashy.ips"])
    func sampleAgainstFixtures(_ format: String, _ sample: String) throws {
        let r = try CLI.run(["symbolicate", "--no-cache", "--format", format, "-s", Self.fixtures, "Samples/crash/\(sample)"])
        #expect(r.status == 0, "\(r.stderr)")
        // The summary lists the images; same and json say on stderr which left frames raw.
        if format == "summary" || sample == "crashy.ips" {
            #expect(r.stderr.isEmpty)
        } else {
            #expect(r.stderr == "Samples/crash/\(sample): warning: image libobjc.A.dylib b3d3f41c2a6c3e1c9d0c4b5b7b2f5a3c missing (1 frame left unsymbolicated)\n")
        }
        try CLI.assertSnapshot(r.stdout, named: "symbolicate-\(sample)-\(format).txt")
        if format == "json" { #expect((try? JSONSerialization.jsonObject(with: r.stdoutBytes)) != nil) }
    }

    /// Issue 20's formats (Scripts/fixtures/make-crash-format-samples): MetricKit, KSCrash and
    /// `.ips` termination reasons, their frames resolved by UUID from the same fixtures.
    @Test(arguments: ["summary", "json", "same"], ["metrickit-payload.json", "metrickit-watchdog.json", "metrickit-tree.json", "kscrash.json",
                                          "kscrash-nsexception.json", "guard.ips", "watchdog.ips", "deadlock.crash", "resource.crash"])
    func moreFormatsAgainstFixtures(_ format: String, _ sample: String) throws {
        let r = try CLI.run(["symbolicate", "--no-cache", "--format", format, "-s", Self.fixtures, "Samples/crash/\(sample)"])
        #expect(r.status == 0, "\(r.stderr)")
        // The summary lists the images; json says on stderr which left frames raw (the
        // system libraries these samples name and the fixtures lack).
        if format == "summary" {
            #expect(r.stderr.isEmpty)
        } else {
            #expect(r.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("Samples/crash/\(sample): warning: image lib") && $0.contains(" missing (") }, "\(r.stderr)")
        }
        try CLI.assertSnapshot(r.stdout, named: "symbolicate-\(sample)-\(format).txt")
        if format == "json" { #expect((try? JSONSerialization.jsonObject(with: r.stdoutBytes)) != nil) }
    }

    /// `--format same` on MetricKit and KSCrash JSON: the same bytes with members added to
    /// each symbolicated frame object, right after its `{` (golden above); here checked to be
    /// only insertions, each one of the documented members, and valid JSON with the symbols.
    @Test(arguments: ["metrickit-payload.json", "metrickit-watchdog.json", "metrickit-tree.json", "kscrash.json", "kscrash-nsexception.json"])
    func sameFormatJSONOnlyAddsMembers(_ sample: String) throws {
        let original = Array(try Data(contentsOf: CLI.repoRoot.appendingPathComponent("Samples/crash/\(sample)")))
        let r = try CLI.run(["symbolicate", "--no-cache", "--format", "same", "-s", Self.fixtures, "Samples/crash/\(sample)"])
        #expect(r.status == 0, "\(r.stderr)")
        let output = r.stdoutBytes
        let first = sample.hasPrefix("metrickit") ? "\"symbol\": " : "\"symbol_name\": "
        // Walk both: where they part, the output holds one inserted run after a `{`, starting
        // with the first member's name and ending with ",", then the original again.
        var i = 0, j = 0, insertions = 0
        while j < original.count {
            if i < output.count, output[i] == original[j] { i += 1; j += 1; continue }
            try #require(i > 0 && output[i - 1] == UInt8(ascii: "{"), "a change not right after '{' at output byte \(i)")
            let rest = original[j..<min(j + 40, original.count)]
            guard let resume = (i..<output.count).first(where: { output[$0...].starts(with: rest) }) else {
                Issue.record("the original does not continue after the insertion at \(i)"); return
            }
            let run = String(decoding: output[i..<resume], as: UTF8.self)
            #expect(run.hasPrefix(first) && run.hasSuffix(","), "\(run)")
            insertions += 1
            i = resume
        }
        #expect(i == output.count)
        #expect(insertions > 0)
        // Every fixture frame of the app got its function; the JSON still parses.
        let text = String(decoding: output, as: UTF8.self)
        for function in ["controller", "start"] { #expect(text.contains("\(first)\"\(function)\""), "\(function)") }
        #expect((try? JSONSerialization.jsonObject(with: Data(output))) != nil)
    }

    /// A MetricKit frame whose return address is in inlined code (`field` inlined into
    /// `load_model`, as the `.crash` sample shows it) gets `inlinedFrames`; a compact file
    /// (no white space) stays compact; a frame already symbolicated has its members replaced,
    /// not repeated; a frame of a missing image is left as it was.
    @Test func sameFormatMetricKitInlinedAndReplaced() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("inline.json")
        let objc = #"{"binaryUUID":"B3D3F41C-2A6C-3E1C-9D0C-4B5B7B2F5A3C","binaryName":"libobjc.A.dylib","offsetIntoBinaryTextSegment":32,"address":6993084448,"#
        let app = #"{"symbol":"stale","binaryUUID":"4C4C44DD-5555-3144-A1EF-29BA5EAF98F6","binaryName":"crashy","offsetIntoBinaryTextSegment":916,"address":4378248084}"#
        try Data((#"{"callStackTree":{"callStacks":[{"threadAttributed":true,"callStackRootFrames":["# + objc + #""subFrames":["# + app + "]}]}]}}").utf8).write(to: log)
        let r = try CLI.run(["symbolicate", "--no-cache", "--format", "same", "-s", Self.fixtures, log.path])
        #expect(r.status == 0, "\(r.stderr)")
        let expected = #"{"callStackTree":{"callStacks":[{"threadAttributed":true,"callStackRootFrames":["# + objc + #""subFrames":["#
            + #"{"symbolLocation": 4, "sourceFile": "crashy.c", "sourceLine": 15, "inlinedFrames": [{"symbol": "field", "sourceFile": "crashy.c", "sourceLine": 11}], "symbol":"load_model","binaryUUID":"4C4C44DD-5555-3144-A1EF-29BA5EAF98F6","binaryName":"crashy","offsetIntoBinaryTextSegment":916,"address":4378248084}"#
            + "]}]}]}}"
        #expect(r.stdout == expected)
    }

    /// 2,000 frames of recursion (`controller` calling itself, as MetricKit nests callers):
    /// read, symbolicated and rewritten without recursion limits, each frame filled in.
    @Test func sameFormatDeepMetricKitRecursion() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("deep.json")
        let frame = #"{"binaryUUID": "4C4C44DD-5555-3144-A1EF-29BA5EAF98F6", "offsetIntoBinaryTextSegment": 936, "subFrames": ["#
        let text = #"{"callStackTree": {"callStacks": [{"threadAttributed": true, "callStackRootFrames": ["#
            + String(repeating: frame, count: 1999) + #"{"binaryUUID": "4C4C44DD-5555-3144-A1EF-29BA5EAF98F6", "offsetIntoBinaryTextSegment": 936}"#
            + String(repeating: "]}", count: 1999) + "]}]}}\n"
        try Data(text.utf8).write(to: log)
        let r = try CLI.run(["symbolicate", "--no-cache", "--format", "same", "-s", Self.fixtures, log.path])
        #expect(r.status == 0, "\(r.stderr)")
        // The root is the crashing address itself (line 21); the 1,999 callers are return
        // addresses, looked up one byte back (line 20), as the summary shows them.
        #expect(r.stdout.components(separatedBy: #"{"symbol": "controller", "symbolLocation": 12, "sourceFile": "crashy.c", "sourceLine": 21, "#).count - 1 == 1)
        #expect(r.stdout.components(separatedBy: #"{"symbol": "controller", "symbolLocation": 12, "sourceFile": "crashy.c", "sourceLine": 20, "#).count - 1 == 1999)
        let summary = try CLI.run(["symbolicate", "--no-cache", "-s", Self.fixtures, log.path])
        #expect(summary.stdout.contains("controller + 12 (crashy.c:21:18)"))
    }

    /// Hostile MetricKit and KSCrash files: one error line naming the file, the line and (JSON
    /// on one line) the column, exit 2, nothing on standard output.
    @Test(arguments: [
        ("metrickit-truncated.json", "1: error: the MetricKit JSON is not valid JSON at column 529: unterminated string: no closing '\"' before the end of input"),
        ("metrickit-deep.json", "1: error: the MetricKit JSON is not valid JSON at column 16481: arrays and objects nest deeper than 16400 levels"),
        ("metrickit-wrong-types.json", "1: error: no MetricKit diagnostic found (crashDiagnostics, hangDiagnostics, cpuExceptionDiagnostics, diskWriteExceptionDiagnostics, callStackTree)"),
        ("kscrash-truncated.json", "1: error: the KSCrash JSON is not valid JSON at column 701: unexpected end of input: object opened at 1:481 is not closed"),
        ("kscrash-wrong-types.json", "1: error: crash is a JSON array, not an object"),
    ])
    func hostileFormatsGiveOneLineAndExit2(_ file: String, _ message: String) throws {
        let path = "Samples/crash/hostile/\(file)"
        let r = try CLI.run(["symbolicate", "--no-cache", path])
        #expect(r.status == 2)
        #expect(r.stderr == "\(path):\(message)\n")
        #expect(r.stdout.isEmpty)
    }

    /// A .zip of the fixtures (dSYMs and binaries) as a search path gives the same output as
    /// the directory: unpacked once into the cache, reused by the next run; a damaged archive
    /// is a warning and its images are missing.
    @Test func zippedSymbolsAreUnpackedOnceIntoTheCache() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let python = try #require(TestProcess.find("python3"))
        let archive = directory.appendingPathComponent("symbols.dSYM.zip").path
        let made = try TestProcess.run(python, ["-c", """
            import os, sys, zipfile
            root, out = sys.argv[1:3]
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
                for folder, _, files in os.walk(root):
                    for f in files:
                        path = os.path.join(folder, f)
                        z.write(path, os.path.relpath(path, root))
            """, CLI.repoRoot.appendingPathComponent(Self.fixtures).path, archive])
        #expect(made.status == 0, "\(made.stderr)")
        let cache = directory.appendingPathComponent("cache").path
        let expected = try CLI.run(["symbolicate", "--no-cache", "--format", "same", "-s", Self.fixtures, "Samples/crash/crashy.crash"])
        let first = try CLI.run(["symbolicate", "--format", "same", "-s", archive, "Samples/crash/crashy.crash"], environment: ["XDG_CACHE_HOME": cache])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == expected.stderr)
        #expect(first.stdout == expected.stdout)
        let archives = cache + "/devkit/archives"
        let unpacked = try FileManager.default.contentsOfDirectory(atPath: archives)
        #expect(unpacked.count == 1)
        let made1 = try FileManager.default.attributesOfItem(atPath: archives + "/" + unpacked[0])[.creationDate] as? Date
        let second = try CLI.run(["symbolicate", "--format", "same", "-s", archive, "Samples/crash/crashy.crash"], environment: ["XDG_CACHE_HOME": cache])
        #expect(second.stdout == expected.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: archives) == unpacked)
        #expect(try FileManager.default.attributesOfItem(atPath: archives + "/" + unpacked[0])[.creationDate] as? Date == made1)
        // Damaged: cut in half.
        let damaged = directory.appendingPathComponent("damaged.zip").path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: damaged))
        let bad = try CLI.run(["symbolicate", "--format", "same", "-s", damaged, "Samples/crash/crashy.crash"], environment: ["XDG_CACHE_HOME": cache])
        #expect(bad.status == 0)
        #expect(bad.stderr.hasPrefix("warning: --search-path \(damaged): error: not a readable zip archive (.dSYM.zip): "), "\(bad.stderr)")
        #expect(bad.stderr.split(separator: "\n").filter { $0.contains("--search-path") }.count == 1)
        #expect(bad.stderr.contains("warning: image crashy 4c4c44dd55553144a1ef29ba5eaf98f6 missing (3 frames left unsymbolicated)"))
    }

    /// A binary of the image's name with another UUID is never used; same and json say so on
    /// stderr (the summary lists it).
    @Test func aMismatchedImageIsNamedOnStandardError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let impostor = directory.appendingPathComponent("crashy").path
        try FileManager.default.copyItem(atPath: CLI.repoRoot.appendingPathComponent(Self.fixtures + "/crashy-other-arm64").path, toPath: impostor)
        for format in ["same", "json"] {
            let r = try CLI.run(["symbolicate", "--no-cache", "--format", format, "-s", directory.path, "Samples/crash/crashy.crash"])
            #expect(r.status == 0)
            let line = r.stderr.split(separator: "\n").first { $0.contains("image crashy ") }
            #expect(line?.hasPrefix("Samples/crash/crashy.crash: warning: image crashy 4c4c44dd55553144a1ef29ba5eaf98f6 mismatched: \(impostor) is ") == true, "\(r.stderr)")
            #expect(line?.hasSuffix(", not used (3 frames left unsymbolicated)") == true)
        }
    }

    @Test func withoutSearchPathsImagesAreMissingAndFramesRaw() throws {
        let r = try CLI.run(["symbolicate", "--no-cache", "Samples/crash/crashy.crash"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("images: 0 found, 0 mismatched, 2 missing"))
        #expect(r.stdout.contains("1   crashy                   0x0000000104f6c394 crashy + 916"))
    }

    @Test func severalLogsToADirectory() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        let r = try CLI.run(["symbolicate", "--no-cache", "--format", "same", "-s", Self.fixtures, "-o", out,
                             "Samples/crash/crashy.crash", "Samples/crash/crashy.ips"])
        #expect(r.status == 0, "\(r.stderr)")
        for sample in ["crashy.crash", "crashy.ips"] {
            let alone = try CLI.run(["symbolicate", "--no-cache", "--format", "same", "-s", Self.fixtures, "Samples/crash/\(sample)"])
            #expect(try String(contentsOfFile: "\(out)/\(sample)", encoding: .utf8) == alone.stdout)
        }
    }

    @Test func anAddressListWithItsBinary() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("backtrace.txt")
        try "# a backtrace of crashy-arm64\n0x100000390\n1 1000003a8\n".write(to: list, atomically: true, encoding: .utf8)
        let r = try CLI.run(["symbolicate", "--no-cache", "--binary", "\(Self.fixtures)/crashy-arm64", "--format", "same", list.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            Thread 0 crashed:
            #0   0x0000000100000390 crashy-arm64         field at /src/crashy.c:11:12 [inlined]
            #0   0x0000000100000390 crashy-arm64         load_model + 0 at /src/crashy.c:15:18
            #1   0x00000001000003a8 crashy-arm64         controller + 12 at /src/crashy.c:20:18

            """)
        // With a load address, the same frames from runtime addresses.
        try "0x104f6c390\n0x104f6c3a8\n".write(to: list, atomically: true, encoding: .utf8)
        let slid = try CLI.run(["symbolicate", "--no-cache", "--binary", "\(Self.fixtures)/crashy-arm64", "--load-address", "0x104f6c000", list.path])
        #expect(slid.stdout.contains("1   crashy-arm64             0x0000000104f6c3a8 controller + 12 (crashy.c:20:18)"))
    }

    @Test func summaryOfACorpusIPSLog() throws {
        guard Self.corpusPresent else { return }
        let r = try CLI.run(["symbolicate", "--no-cache", "\(Self.corpus)/ips/lldb-multithread-test.ips"])
        #expect(r.status == 0, "\(r.stderr)")
        try CLI.assertSnapshot(r.stdout, named: "symbolicate-crash-multithread.txt")
    }

    @Test func jsonOfACorpusTextLogHasEveryThread() throws {
        guard Self.corpusPresent else { return }
        let r = try CLI.run(["symbolicate", "--no-cache", "--format", "json", "\(Self.corpus)/apple/lldb-altered_threadState.crash"])
        #expect(r.status == 0, "\(r.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any]
        #expect((parsed?["threads"] as? [Any])?.count == 1)
        try CLI.assertSnapshot(r.stdout, named: "symbolicate-crash-threadstate.json")
    }

    @Test func errorsNameFileAndLine() throws {
        guard Self.corpusPresent else { return }
        let r = try CLI.run(["symbolicate", "--no-cache", "\(Self.corpus)/ips/lldb-a.out.ips"])
        #expect(r.status == 2)
        #expect(r.stderr == "\(Self.corpus)/ips/lldb-a.out.ips:128: error: the body is not valid JSON: unexpected '@': expected a JSON value\n")
    }

    @Test func aFileThatIsNoCrashLogExits2() throws {
        let r = try CLI.run(["symbolicate", "--no-cache", "Package.swift"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("Package.swift: error: "))
        #expect(r.stdout.isEmpty)
    }

    @Test func everyMissingLogIsReportedAndTheRestStillPrinted() throws {
        let r = try CLI.run(["symbolicate", "--no-cache", "a.crash", "Samples/crash/crashy.crash", "b.crash"])
        #expect(r.status == 2)
        #expect(r.stderr == "a.crash: error: No such file or directory\nb.crash: error: No such file or directory\n")
        #expect(r.stdout.hasPrefix("process: crashy [4242]"))
    }

    @Test func aCoreDumpMadeNow() throws {
        guard let cc = TestProcess.find("cc", "clang"), let gdb = TestProcess.find("gdb") else {
            print("skipped: a C compiler and gdb are needed to make a core")
            return
        }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("segv.c")
        try """
            __attribute__((noinline)) int read_field(int *p) { return p[4]; }
            __attribute__((noinline)) int handle(int *p) { return read_field(p) + 1; }
            int main(void) { return handle((int *)0); }

            """.write(to: source, atomically: true, encoding: .utf8)
        let program = directory.appendingPathComponent("segv").path, core = directory.appendingPathComponent("core").path
        #expect(try TestProcess.run(cc, ["-g", "-O0", source.path, "-o", program]).status == 0)
        // `timeout -s KILL`: should gdb hang anyway, the test fails with "gdb wrote no core".
        let timeout = TestProcess.find("timeout") ?? "/usr/bin/timeout"
        try TestProcess.runWithSignalsUnblocked(timeout, ["-s", "KILL", "60", gdb, "-nx", "-batch", "-ex", "run",
                                                          "-ex", "generate-core-file \(core)", "--args", program])
        guard FileManager.default.fileExists(atPath: core) else {
            Issue.record("gdb wrote no core")
            return
        }
        let r = try CLI.run(["symbolicate", "--no-cache", core, "--executable", program])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("crash: SIGSEGV at 0x10"))
        #expect(r.stdout.contains("null pointer dereference (offset 0x10), in read_field at segv.c:1:"))
        let frames = r.stdout.split(separator: "\n").filter { $0.hasPrefix("  0 ") || $0.hasPrefix("  1 ") || $0.hasPrefix("  2 ") }
        #expect(frames.count == 3)
        #expect(frames.map { $0.contains("read_field") || $0.contains("handle") || $0.contains("main") } == [true, true, true])
    }
}
