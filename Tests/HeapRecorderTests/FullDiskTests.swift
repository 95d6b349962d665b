import Foundation
import HeapAnalysis
import HeapTestSupport
import Testing

/// The recording's disk fills up while the program runs: the recorder must stop recording
/// and the program must run to its end undisturbed, and what was written must stay readable
/// up to its last complete record. The disk is a 64 KiB tmpfs mounted in a private mount
/// namespace (`unshare --mount`, so nothing is mounted on the machine); root only, skipped
/// otherwise.
@Suite struct FullDiskTests {
    @Test func aFullDiskStopsTheRecordingNotTheProgram() throws {
        guard getuid() == 0, let unshare = ["/usr/bin/unshare", "/bin/unshare"].first(where: FileManager.default.isExecutableFile) else {
            print("skipped: mounting a small tmpfs needs root and unshare")
            return
        }
        guard let cc = HeapFixture.compiler() else {
            print("skipped: no C compiler")
            return
        }
        let out = try HeapFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        // 200,000 blocks kept alive (so no pair is cancelled in the recorder's buffers), of
        // pseudo-random sizes (compressed, regular sizes would fit the disk): hundreds of
        // kilobytes of events for a 64 KiB disk; the program says it finished.
        let source = out.appendingPathComponent("keeper.c")
        try """
            #include <stdio.h>
            #include <stdlib.h>
            int main(void) {
                static void *kept[200000];
                unsigned long x = 42;
                for (int i = 0; i < 200000; i++) {
                    x = x * 6364136223846793005ul + 1442695040888963407ul;
                    kept[i] = malloc(16 + (x >> 33) % 256);
                }
                long sum = 0;
                for (int i = 0; i < 200000; i++) sum += kept[i] != NULL;
                printf("done %ld\\n", sum);
                return 0;
            }

            """.write(to: source, atomically: true, encoding: .utf8)
        let workload = out.appendingPathComponent("keeper").path
        #expect(try HeapFixture.run(cc, ["-O1", source.path, "-o", workload]).status == 0)
        let disk = out.appendingPathComponent("disk").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        // The recording is copied out before the namespace (and its mount) goes away.
        let script = """
            mount -t tmpfs -o size=64k tmpfs "$1" || exit 97
            "$2" heap record -o "$1/full.dkheap" -- "$3"; status=$?
            cp "$1/full.dkheap" "$4/full.dkheap"
            exit $status
            """
        let result = try HeapFixture.run(unshare, ["--mount", "sh", "-c", script, "sh", disk, HeapFixture.devkit, workload, out.path])
        if result.status == 97 {
            print("skipped: cannot mount a tmpfs here: \(result.stderr)")
            return
        }
        // The program finished normally, but the recording lacks its tail: heap record says
        // so, how far it got and how the program ended, and exits 2 (issue 15, section 6).
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout == "done 200000\n")
        #expect(!result.stderr.contains("recording written"))
        #expect(result.stderr.contains("/full.dkheap: error: recording incomplete: the recorder stopped writing after "))
        #expect(result.stderr.contains("bytes (No space left on device); the program ran on and exited with status 0"))
        let path = out.appendingPathComponent("full.dkheap").path
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size > 0 && size <= 64 * 1024)
        // Readable up to its last complete record: the start mark and the command line are there.
        let recording = try HeapFixture.load(path)
        #expect(recording.marks.first?.label == "start")
        let report = try HeapFixture.run(HeapFixture.devkit, ["heapdiff", path])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("start"))
        // The disk had no room left for the end record: the reader says so.
        #expect(report.stdout.contains("no end record"))
    }
}
