import Foundation
import HeapAnalysis
import HeapTestSupport
import Testing

/// Mark labels pass through a directory only the recording user can enter (issue 15,
/// section 4), no longer through the predictable /tmp/devkit-heap-mark.PID: what another
/// local user plants there is never read, and a FIFO there cannot block the mark handler.
@Suite struct MarkChannelTests {
    /// Runs the `planted` workload with `plant` (a shell line, `$1` the workload's pid) run as
    /// user nobody; root only (setpriv), skipped otherwise.
    private func recordWithPlanted(_ plant: String, name: String) throws -> (status: Int32, stderr: String, recording: HeapRecording?) {
        let directory = try HeapFixture.built.get()
        let out = try HeapFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let script = out.appendingPathComponent("plant.sh")
        try """
            /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups sh -c '\(plant)' sh "$1" || exit 1
            echo "/tmp/devkit-heap-mark.$1" > "\(out.path)/planted"

            """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: out.path)
        let output = out.appendingPathComponent("\(name).dkheap").path
        // timeout: the old recorder blocked for ever opening a planted FIFO.
        let result = try HeapFixture.run("/usr/bin/timeout", ["60", HeapFixture.devkit, "heap", "record", "-o", output, "--",
                                                             directory.appendingPathComponent("workload").path, "planted",
                                                             "sh \(script.path)", HeapFixture.devkit], cwd: out)
        if let planted = try? String(contentsOfFile: out.appendingPathComponent("planted").path, encoding: .utf8) {
            try? FileManager.default.removeItem(atPath: planted.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return (result.status, result.stderr, try? HeapFixture.load(output))
    }

    private static var canSwitchUser: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") }

    @Test func anotherUsersFIFOAtTheOldNameHasNoEffect() throws {
        guard Self.canSwitchUser else { print("skipped: needs root and setpriv"); return }
        let run = try recordWithPlanted(#"mkfifo -m 666 /tmp/devkit-heap-mark.$1"#, name: "fifo")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.recording?.marks.map(\.label) == ["start", "", "labelled"])
    }

    @Test func anotherUsersFileAtTheOldNameIsNotALabel() throws {
        guard Self.canSwitchUser else { print("skipped: needs root and setpriv"); return }
        let run = try recordWithPlanted(#"printf planted > /tmp/devkit-heap-mark.$1"#, name: "file")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.recording?.marks.map(\.label) == ["start", "", "labelled"])
        #expect(HeapFixture.survivors(try #require(run.recording), generation: 1)["malloc 119 bytes"]?.count == 8)
    }

    /// A mark directory that is not private (here /tmp itself, as a hostile environment could
    /// name) is neither read by the recorder nor written by `heap mark`: the label is refused.
    @Test func aSharedMarkDirectoryIsRefused() throws {
        let directory = try HeapFixture.built.get()
        let run = try HeapFixture.preloaded(directory.appendingPathComponent("workload").path, ["signal", HeapFixture.devkit],
                                            environment: ["DEVKIT_HEAP_MARK_DIR": "/tmp"], name: "shared")
        // workload exits 3 when `devkit heap mark` fails.
        #expect(run.status == 3)
        let mark = try HeapFixture.run(HeapFixture.devkit, ["heap", "mark", "999999999", "label"])
        #expect(mark.status == 2)
        #expect(mark.stderr.contains("no mark directory"))
    }
}

/// A program killed with SIGKILL cannot flush its buffers: its last generation undercounts,
/// and heapdiff says so, naming the recording (issue 15, sections 6 and 7).
@Suite struct KilledRecordingTests {
    @Test func aKilledProgramsRecordingGetsAWarning() throws {
        let run = try HeapFixture.record("/bin/sh", ["-c", "kill -9 $$"], name: "killed")
        #expect(run.status == 128 + 9)
        let report = try HeapFixture.run(HeapFixture.devkit, ["heapdiff", run.recordingPath])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stderr.contains("\(run.recordingPath): offset 0x"))
        #expect(report.stderr.contains(": warning: no end record: the program was killed before the recorder finished"))
    }

    /// Pairs a thread counted: its cancelled pairs plus any it wrote as events.
    static func churned(_ recording: HeapRecording, size: UInt64) -> Int {
        var events = 0
        recording.forEachEvent { if $0.kind == .allocation, $0.size == size { events += 1 } }
        return events + recording.cancelledPairs.filter { $0.size == size }.reduce(0) { $0 + $1.count }
    }

    /// A mark writes every thread's pair counters: a SIGKILL right after it loses none of the
    /// 50,000 pairs another thread counted (fewer than the 2^16 that force a write).
    @Test func aMarkWritesOtherThreadsCounters() throws {
        let (run, recording) = try HeapFixture.workload("killed-churn", ["mark"])
        #expect(run.status == 128 + 9)
        #expect(recording.end == nil)
        #expect(Self.churned(recording, size: 77) == 50_000)
    }

    /// Without a mark, counters older than 0.1 s are written at the thread's next count: of 10
    /// bursts of 1000 pairs 50 ms apart, a SIGKILL after the last loses at most the bursts of
    /// the last 0.1 s and a few (the clock is read every 256 pairs).
    @Test func aKillLosesOnlyTheLastMomentsPairs() throws {
        let (run, recording) = try HeapFixture.workload("killed-churn", ["bursts"])
        #expect(run.status == 128 + 9)
        let counted = Self.churned(recording, size: 77)
        #expect(counted <= 10_000)
        #expect(counted >= 10_000 - 4_000, "\(counted) of 10000 pairs written")
    }
}
