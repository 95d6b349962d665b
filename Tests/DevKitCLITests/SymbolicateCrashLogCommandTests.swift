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
    @Test(arguments: ["summary", "json"], ["metrickit-payload.json", "metrickit-watchdog.json", "metrickit-tree.json", "kscrash.json",
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
