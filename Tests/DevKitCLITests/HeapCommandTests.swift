import Foundation
import Testing

/// `devkit heap record`, `heap mark` and `heapdiff` end to end, on Samples/heapshots.c.
@Suite(.serialized) struct HeapCommandTests {
    /// Builds Samples/heapshots.c and records it; nil (test skipped) without a C compiler.
    static func recordSample(in directory: URL) throws -> String? {
        guard let cc = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("skipped: no C compiler")
            return nil
        }
        let program = directory.appendingPathComponent("heapshots").path
        let build = Process()
        build.executableURL = URL(fileURLWithPath: cc)
        build.arguments = ["-g", "-O0", "-I", CLI.repoRoot.appendingPathComponent("Sources/HeapRecorder/include").path,
                           CLI.samples.appendingPathComponent("heapshots.c").path, "-o", program]
        try build.run()
        build.waitUntilExit()
        try #require(build.terminationStatus == 0)
        let recording = directory.appendingPathComponent("heapshots.dkheap").path
        let result = try CLI.run(["heap", "record", "-o", recording, "--", program])
        #expect(result.status == 0)
        #expect(result.stderr == "devkit: heap recording written to \(recording)\n")
        return recording
    }

    /// The report with the run's pid, temporary paths and times replaced, and the chart of
    /// live bytes over time (its columns depend on the run's timing) cut to its first line.
    static func normalized(_ text: String, directory: URL) -> String {
        var lines: [Substring] = []
        var inChart = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("live bytes (") { inChart = true; lines.append(line); continue }
            if inChart, line.isEmpty { inChart = false }
            if !inChart { lines.append(line) }
        }
        return lines.joined(separator: "\n").replacingOccurrences(of: directory.path, with: "TMP")
            .replacingOccurrences(of: #"pid \d+"#, with: "pid PID", options: .regularExpression)
            .replacingOccurrences(of: #"\d+\.\d+ s\b"#, with: "T s", options: .regularExpression)
    }

    @Test func heapshotsSampleReport() throws {
        let directory = try CLI.temporaryDirectory()
        guard let recording = try Self.recordSample(in: directory) else { return }
        let text = try CLI.run(["heapdiff", recording, "--group-by", "function"])
        #expect(text.status == 0)
        try CLI.assertSnapshot(Self.normalized(text.stdout, directory: directory), named: "heapdiff-heapshots.txt")
        // The chart: 4 rows of levels up to the peak, the axis, the 4 marks, the time axis.
        let chart = text.stdout.components(separatedBy: "live bytes (each column its highest level; ^ marks a generation)\n")[1]
            .components(separatedBy: "\n\n")[0].split(separator: "\n")
        #expect(chart.count == 7)
        #expect(chart.first?.hasPrefix("145.7 KiB ┤") == true)
        #expect(chart.first?.hasSuffix("█") == true)
        #expect(chart[4].hasPrefix("      0 B └"))
        // One ^ per column holding a mark: the 4 marks of a run of a millisecond or two land 10–
        // 500 µs apart, and the recorder's own timing decides whether two share a column.
        #expect((1...4).contains(chart[5].filter { $0 == "^" }.count))
        #expect(chart[6].hasSuffix(" s"))
        // --until peak: the generations' blocks alive at the peak, as collapsed stacks.
        let peak = try CLI.run(["heapdiff", recording, "--until", "peak", "--format", "collapsed"])
        #expect(peak.stdout.split(separator: "\n").count == 3)
        let peakJSON = try JSONSerialization.jsonObject(with: try CLI.run(["heapdiff", recording, "--format", "json"]).stdoutBytes) as? [String: Any]
        let peakValue = peakJSON?["peak"] as? [String: Any]
        // Three documents kept, and what the third open had alive besides (short-lived blocks).
        #expect((peakValue?["bytes"] as? Int).map { $0 - (peakValue?["shortLivedBytes"] as? Int ?? 0) } == 3 * 16384)
        #expect(peakValue?["shortLivedBlocks"] as? Int == 2)
        #expect(peakValue?["generation"] as? Int == 3)
        let points = (peakJSON?["timeline"] as? [String: Any])?["points"] as? [[String: Any]]
        #expect(points?.compactMap { $0["bytes"] as? Int }.max() == peakValue?["bytes"] as? Int)
        let collapsed = try CLI.run(["heapdiff", recording, "--format", "collapsed"])
        #expect(collapsed.stdout.split(separator: "\n").count == 3)
        #expect(collapsed.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix(";main;open_document 16384") })
        let json = try CLI.run(["heapdiff", recording, "--format", "json", "--until", "next"])
        let value = try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any]
        let generations = value?["generations"] as? [[String: Any]]
        #expect(generations?.map { $0["aliveBytes"] as? Int } == [0, 16384, 16384, 16384, 0])
        #expect(generations?.map { $0["label"] as? String } == ["start", "open/close 1", "open/close 2", "open/close 3", "idle"])

        // The same program recorded twice: no growth between the recordings.
        let again = try CLI.run(["heapdiff", recording, recording])
        #expect(again.stdout.hasSuffix("no differences by site\n"))
    }

    @Test func htmlReportIsWrittenAndNothingPrinted() throws {
        let directory = try CLI.temporaryDirectory()
        guard let recording = try Self.recordSample(in: directory) else { return }
        let page = directory.appendingPathComponent("report.html").path
        let result = try CLI.run(["heapdiff", recording, "--group-by", "function", "--html", page])
        #expect(result.status == 0)
        #expect(result.stdout == "")
        // No progress line either: stderr is a pipe.
        #expect(result.stderr == "devkit: HTML report written to \(page)\n")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        for label in ["open/close 1", "open/close 2", "open/close 3", "idle"] { #expect(html.contains(label)) }
        #expect(html.components(separatedBy: "<title>open_document — 1 block, 16384 bytes (16.0 KiB)</title>").count == 4)
        // Three generations' groups and the groups alive at the peak.
        #expect(html.components(separatedBy: "<td class=\"key\">open_document</td>").count == 5)
        #expect(html.contains("<svg class=\"timeline\" id=\"timeline-chart\""))
        #expect(html.contains("<p>peak: 145.7 KiB in 5 blocks at "))

        let compared = try CLI.run(["heapdiff", recording, recording, "--html", page])
        #expect(compared.status == 0)
        #expect(compared.stdout == "")
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("no differences by site"))

        let both = try CLI.run(["heapdiff", recording, "--html", page, "--format", "json"])
        #expect(both.status != 0)
        #expect(both.stderr.contains("--html and --format are alternatives"))
    }

    /// The progress line is drawn only on a terminal: under script(1) it appears and is
    /// erased before the final message; through a pipe (every other test) it never does.
    @Test func progressOnlyOnATerminal() throws {
        let directory = try CLI.temporaryDirectory()
        guard let recording = try Self.recordSample(in: directory) else { return }
        let piped = try CLI.run(["heapdiff", recording])
        #expect(!piped.stderr.contains("\r") && !piped.stderr.contains("reading"))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let page = directory.appendingPathComponent("tty.html").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "'\(CLI.binary.path)' heapdiff '\(recording)' --html '\(page)'", "/dev/null"]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let terminal = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // The first update is drawn at once, after the file header: "reading 2% (0 MB of 0 MB)".
        #expect(terminal.contains("\rreading ") && terminal.contains("% (0 MB of 0 MB)\u{1B}[K"))
        #expect(terminal.contains("\r\u{1B}[Kdevkit: HTML report written to \(page)"))
    }

    @Test func truncatedRecordingWarnsAndReportsWhatItHas() throws {
        let directory = try CLI.temporaryDirectory()
        guard let recording = try Self.recordSample(in: directory) else { return }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: recording))
        bytes.removeLast(5)
        let cut = directory.appendingPathComponent("cut.dkheap")
        try bytes.write(to: cut)
        let result = try CLI.run(["heapdiff", cut.path])
        #expect(result.status == 0)
        // The end record is inside the last compressed record (type 13), which is cut.
        #expect(result.stderr.contains("warning: last record (type 13) is cut short"))
        #expect(result.stdout.contains("no end record"))
    }

    @Test func badInputs() throws {
        let notRecording = try CLI.run(["heapdiff", "Samples/Info.plist"])
        #expect(notRecording.status == 2)
        #expect(notRecording.stderr == "Samples/Info.plist: offset 0x0: error: file header: not a devkit heap recording (no DKITHEAP magic)\n")
        let missing = try CLI.run(["heapdiff", "nope.dkheap"])
        #expect(missing.status == 2)
        let noProgram = try CLI.run(["heap", "record", "--"])
        #expect(noProgram.status == 2)
        let notRunnable = try CLI.run(["heap", "record", "-o", "/tmp/devkit-heap-test-none.dkheap", "--", "/nonexistent/program"])
        #expect(notRunnable.status == 2)
        #expect(notRunnable.stderr.contains("/nonexistent/program: error: cannot run"))
        // An output that is not a regular file is refused, never removed.
        let device = try CLI.run(["heap", "record", "-o", "/dev/null", "--", "/bin/true"])
        #expect(device.status == 2)
        #expect(device.stderr == "/dev/null: error: exists and is not a regular file; choose another -o\n")
        #expect(FileManager.default.fileExists(atPath: "/dev/null"))
    }

    @Test func exitStatusAndSignalsArePassedThrough() throws {
        let output = try CLI.temporaryDirectory().appendingPathComponent("sh.dkheap").path
        #expect(try CLI.run(["heap", "record", "-o", output, "--", "/bin/sh", "-c", "exit 7"]).status == 7)
        #expect(try CLI.run(["heap", "record", "-o", output, "--", "/bin/sh", "-c", "kill -TERM $$"]).status == 128 + 15)
    }

    /// Help asked for before the program is devkit's; after `--` it is the program's.
    @Test func helpWinsBeforeTheProgram() throws {
        for flag in ["--help", "-h"] {
            let help = try CLI.run(["heap", "record", flag])
            #expect(help.status == 0)
            #expect(help.stdout.contains("USAGE: devkit heap record"))
        }
        let withOutput = try CLI.run(["heap", "record", "-o", "/tmp/devkit-heap-test-none.dkheap", "--help"])
        #expect(withOutput.status == 0)
        #expect(withOutput.stdout.contains("USAGE: devkit heap record"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/devkit-heap-test-none.dkheap"))
        let output = try CLI.temporaryDirectory().appendingPathComponent("echo.dkheap").path
        let passed = try CLI.run(["heap", "record", "-o", output, "--", "/bin/sh", "-c", "printf '%s\\n' \"$1\"", "sh", "--help"])
        #expect(passed.status == 0)
        #expect(passed.stdout == "--help\n")
    }

    /// A SIGKILLed program writes no end record: devkit says so, and the report too.
    @Test func killedProgramIsReported() throws {
        let output = try CLI.temporaryDirectory().appendingPathComponent("killed.dkheap").path
        let killed = try CLI.run(["heap", "record", "-o", output, "--", "/bin/sh", "-c", "kill -KILL $$"])
        #expect(killed.status == 128 + 9)
        #expect(killed.stderr.contains("the program was killed by signal 9 (SIGKILL)"))
        let report = try CLI.run(["heapdiff", output])
        #expect(report.stdout.contains("no end record: killed"))
    }

    /// Tests/HeapRecorderTests/Programs/leaks.c built and recorded with or without the exit scan.
    static func recordLeaks(in directory: URL, scan: Bool) throws -> String? {
        guard let cc = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("skipped: no C compiler")
            return nil
        }
        let program = directory.appendingPathComponent("leaks").path
        let build = Process()
        build.executableURL = URL(fileURLWithPath: cc)
        build.arguments = ["-g", "-O1", "-pthread", CLI.repoRoot.appendingPathComponent("Tests/HeapRecorderTests/Programs/leaks.c").path, "-o", program]
        try build.run()
        build.waitUntilExit()
        try #require(build.terminationStatus == 0)
        let recording = directory.appendingPathComponent(scan ? "leaks.dkheap" : "noscan.dkheap").path
        let result = try CLI.run(["heap", "record", "-o", recording] + (scan ? ["--scan-at-exit"] : []) + ["--", program, "leaks"])
        #expect(result.status == 0)
        return recording
    }

    @Test func heapdiffLeaksByMemcheckKind() throws {
        let directory = try CLI.temporaryDirectory()
        guard let recording = try Self.recordLeaks(in: directory, scan: true) else { return }
        let text = try CLI.run(["heapdiff", recording, "--leaks", "--group-by", "function"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("exit scan: 171 live blocks, 120 unreachable (6.9 KiB)"))
        #expect(text.stdout.contains("gen  label  definitely    bytes  indirectly  bytes  possibly  bytes  reachable    bytes\n"))
        #expect(text.stdout.contains("  0  start         101  6.3 KiB          19  608 B         1  200 B         50  4.7 KiB\n"))
        #expect(text.stdout.contains("generation 0 (start): 101 blocks definitely lost, 6.3 KiB, by function\n"))
        #expect(text.stdout.contains("  6.3 KiB  100  leak_dropped\n"))
        #expect(text.stdout.contains("     32 B    1  leak_list\n"))
        #expect(text.stdout.contains("generation 0 (start): 19 blocks indirectly lost, 608 B, by function\n  608 B  19  leak_list\n"))
        #expect(text.stdout.contains("generation 0 (start): 1 block possibly lost, 200 B, by function\n  200 B  1  keep_interior\n"))
        #expect(text.stdout.contains("generation 0 (start): 50 blocks still reachable, 4.7 KiB, by function\n  4.7 KiB  50  keep_global\n"))
        #expect(!text.stdout.contains("warning"))

        let json = try CLI.run(["heapdiff", recording, "--leaks", "--group-by", "function", "--format", "json"])
        #expect(json.status == 0)
        let value = try #require(try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        #expect((value["leaked"] as? [String: Int]) == ["count": 120, "bytes": 7040])
        #expect((value["definitelyLost"] as? [String: Int]) == ["count": 101, "bytes": 6432])
        #expect((value["indirectlyLost"] as? [String: Int]) == ["count": 19, "bytes": 608])
        #expect((value["possiblyLost"] as? [String: Int]) == ["count": 1, "bytes": 200])
        #expect((value["stillReachable"] as? [String: Int]) == ["count": 50, "bytes": 4800])
        let generation = try #require((value["generations"] as? [[String: Any]])?.first)
        let definiteGroups = (generation["definitelyLost"] as? [String: Any])?["groups"] as? [[String: Any]]
        #expect(definiteGroups?.map { $0["key"] as? String } == ["leak_dropped", "leak_list"])
        #expect(definiteGroups?.map { $0["bytes"] as? Int } == [6400, 32])
        let reachableGroups = (generation["stillReachable"] as? [String: Any])?["groups"] as? [[String: Any]]
        #expect(reachableGroups?.map { $0["count"] as? Int } == [50])
        let scan = try #require(value["scan"] as? [String: Any])
        #expect(scan["leakKinds"] as? Bool == true)

        let collapsed = try CLI.run(["heapdiff", recording, "--leaks", "--format", "collapsed"])
        #expect(collapsed.stdout.split(separator: "\n").map { $0.split(separator: " ").last } == ["6400", "640"])
    }

    @Test func heapdiffLeaksHTML() throws {
        let directory = try CLI.temporaryDirectory()
        guard let recording = try Self.recordLeaks(in: directory, scan: true) else { return }
        let page = directory.appendingPathComponent("leaks.html").path
        let result = try CLI.run(["heapdiff", recording, "--leaks", "--group-by", "function", "--html", page])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "devkit: HTML report written to \(page)\n")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("exit scan: 171 live blocks, 120 unreachable (6.9 KiB)"))
        #expect(html.contains("<td class=\"n\">100</td><td class=\"key\">leak_dropped</td>"))
        #expect(html.contains("<td class=\"n\">1</td><td class=\"key\">leak_list</td>"))
        #expect(html.contains("<td class=\"n\">19</td><td class=\"key\">leak_list</td>"))
        #expect(html.contains("<h3>120 leaked blocks (definitely and indirectly lost), 6.9 KiB</h3>"))
        #expect(html.contains("<h3>1 block possibly lost, 200 B</h3>"))
        // The flame graph draws every leaked block: the list's head and its 19 nodes together.
        #expect(html.contains("<title>leak_list — 20 blocks, 640 bytes (640 B)</title>"))
        #expect(html.contains("<td class=\"n\">50</td><td class=\"key\">keep_global</td>"))
        #expect(html.contains("<title>leak_dropped — 100 blocks, 6400 bytes (6.3 KiB)</title>"))
        #expect(!html.lowercased().contains("<script"))
    }

    @Test func heapdiffLeaksWithoutAScanExitsTwo() throws {
        let directory = try CLI.temporaryDirectory()
        guard let recording = try Self.recordLeaks(in: directory, scan: false) else { return }
        let result = try CLI.run(["heapdiff", recording, "--leaks"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("\(recording): error: the recording has no exit scan; record with `devkit heap record --scan-at-exit`"))
        let two = try CLI.run(["heapdiff", recording, recording, "--leaks"])
        #expect(two.status == 2)
        #expect(two.stderr.contains("--leaks takes one recording"))
    }
}
