import CrashReport
import Testing

/// Termination reasons in words, from each place a format keeps them: `.crash`'s
/// `Termination Reason`/`Exception Codes`, `.ips`'s `termination`, MetricKit's `terminationReason`.
@Suite struct TerminationExplanationTests {
    static func report(type: String? = nil, codes: String? = nil, reason: String? = nil, termination: String? = nil) -> CrashReport {
        var report = CrashReport(format: .appleText)
        if type != nil || codes != nil || reason != nil {
            var exception = CrashException()
            exception.type = type
            exception.codes = codes
            exception.reason = reason
            report.exception = exception
        }
        report.terminationReason = termination
        return report
    }

    @Test func fileDescriptorGuardNamesTheOperationDescriptorAndGuard() {
        // type FD (2) << 61 | flavor DUP (2) << 32 | fd 12
        let lines = TerminationExplanation.lines(for: Self.report(type: "EXC_GUARD", codes: "0x400000020000000c, 0x00000000deadbeef"))
        #expect(lines == ["file-descriptor guard: DUP on file descriptor 12 (guard id 0xdeadbeef) — the app used a descriptor a system library guards (often the SQLite file under Core Data) through plain file APIs"])
    }

    @Test func machPortGuard() {
        // type MACH_PORT (1) << 61 | flavor MOD_REFS (2) << 32 | port name 0x1503
        let lines = TerminationExplanation.lines(for: Self.report(type: "EXC_GUARD", codes: "0x2000000200001503, 0x0"))
        #expect(lines == ["Mach-port guard: MOD_REFS on port name 0x1503 (guard id 0x0) — a guarded Mach port was used or deallocated wrongly"])
    }

    @Test(arguments: [
        // CPU (1), CPU_MONITOR_FATAL (2): 80% over 180 s; 95% used.
        ("0x2800000000005a50, 0x5f", "CPU limit (fatal): more than 80% CPU over 180 seconds (used 95%)"),
        // WAKEUPS (2): 150 per second over 300 s; 45000 observed.
        ("0x4400000012c00096, 0xafc8", "WAKEUPS limit: more than 150 wakeups per second over 300 seconds (observed 45000 per second)"),
        // MEMORY (3), HIGH_WATERMARK (1): 2098 MB.
        ("0x6400000000000832, 0x0", "MEMORY limit: the footprint went over 2098 MB (high watermark)"),
        // IO (4), LOGICAL_WRITES (2): 2048 MB over 86400 s; 2049 MB written.
        ("0x88000000a8c00800, 0x801", "IO limit: more than 2048 MB of logical writes over 86400 seconds (wrote 2049 MB)"),
    ])
    func resourceLimits(_ codes: String, _ expected: String) {
        #expect(TerminationExplanation.lines(for: Self.report(type: "EXC_RESOURCE", codes: codes)) == [expected])
    }

    @Test func textReportTerminationCodes() {
        #expect(TerminationExplanation.lines(for: Self.report(termination: "Namespace RUNNINGBOARD, Code 0xdead10cc"))
            == ["0xdead10cc (\"deadlock\"): the app held a file lock or an SQLite database lock while it was suspended; release such locks (or finish with a background task) before suspension"])
        #expect(TerminationExplanation.lines(for: Self.report(termination: "Namespace SPRINGBOARD, Code 0xbaadca11")).first?.hasPrefix("0xbaadca11 (\"bad call\")") == true)
        #expect(TerminationExplanation.lines(for: Self.report(termination: "Namespace SPRINGBOARD, Code 0xc00010ff")).first?.hasPrefix("0xc00010ff (\"cool off\")") == true)
        // Newer reports write the code in decimal: 2343432205 is 0x8badf00d.
        #expect(TerminationExplanation.lines(for: Self.report(termination: "FRONTBOARD 2343432205")).first?.hasPrefix("watchdog (0x8badf00d") == true)
    }

    @Test func jetsam() {
        #expect(TerminationExplanation.lines(for: Self.report(termination: "Namespace JETSAM, per-process-limit"))
            == ["jetsam: the system ended the app to free memory because it went over its per-process memory limit (lower the footprint: caches, images, leaks)"])
    }

    @Test func anOrdinaryCrashHasNoTerminationLine() {
        #expect(TerminationExplanation.lines(for: Self.report(type: "EXC_BAD_ACCESS", codes: "0x0000000000000001, 0x0000000000000018", reason: "KERN_INVALID_ADDRESS at 0x18")).isEmpty)
    }

    @Test func aTextReportsTerminationReasonReachesTheSummary() throws {
        let text = """
            Process:             demo [42]
            Exception Type:  EXC_CRASH (SIGKILL)
            Exception Codes: 0x0000000000000000, 0x0000000000000000
            Termination Reason: Namespace RUNNINGBOARD, Code 0xdead10cc

            Thread 0 Crashed:
            0   demo                          	0x00000001045490f0 0x104544000 + 20720
            """
        let report = try CrashReportParser.parse(Array(text.utf8)).report
        #expect(report.terminationReason == "Namespace RUNNINGBOARD, Code 0xdead10cc")
        #expect(report.summary().contains("termination: 0xdead10cc (\"deadlock\")"))
    }

    @Test func anIPSTerminationObjectIsRead() throws {
        let text = #"{"bug_type": "309"}"# + "\n" + #"{"exception": {"type": "EXC_CRASH", "signal": "SIGKILL"}, "termination": {"namespace": "FRONTBOARD", "code": 2343432205, "indicator": "scene-update watchdog transgression"}, "threads": []}"#
        let report = try CrashReportParser.parse(Array(text.utf8)).report
        #expect(report.terminationReason == "Namespace FRONTBOARD, Code 0x8badf00d scene-update watchdog transgression")
        #expect(TerminationExplanation.lines(for: report).count == 1)
    }
}
