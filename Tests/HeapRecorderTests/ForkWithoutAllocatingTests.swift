import Foundation
import HeapAnalysis
import HeapTestSupport
import Testing

/// A process whose forking thread never allocated before the fork: the child's fork handler
/// claims a buffer for that thread, which asks glibc for the thread's stack, and glibc reads
/// /proc/self/maps with malloc. That malloc, recorded, claimed the buffer again inside glibc's
/// lock, and the child hung for ever (`/usr/bin/time` under the recorder did).
@Suite struct ForkWithoutAllocatingTests {
    @Test func aChildForkedBeforeAnyAllocationRuns() throws {
        guard let cc = HeapFixture.compiler() else {
            print("skipped: no C compiler")
            return
        }
        let out = try HeapFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let source = out.appendingPathComponent("forker.c")
        try """
            #include <stdlib.h>
            #include <sys/wait.h>
            #include <unistd.h>
            int main(void) {
                pid_t child = fork();
                if (child == 0) {
                    free(malloc(40));
                    _exit(7);
                }
                int status = 0;
                waitpid(child, &status, 0);
                free(malloc(24));
                return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
            }

            """.write(to: source, atomically: true, encoding: .utf8)
        let program = out.appendingPathComponent("forker").path
        #expect(try HeapFixture.run(cc, ["-O1", source.path, "-o", program]).status == 0)
        let recording = out.appendingPathComponent("fork.dkheap").path
        // Under timeout(1): a hang is a failure (status 124), not a test run that never ends.
        let result = try HeapFixture.run("/usr/bin/timeout", ["30", HeapFixture.devkit, "heap", "record", "-o", recording, "--", program])
        #expect(result.status == 7, "\(result.stderr)")
        let read = try HeapFixture.load(recording)
        #expect(read.end != nil)
        #expect(read.warnings.isEmpty)
    }
}
