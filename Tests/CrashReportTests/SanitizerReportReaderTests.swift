import CrashReport
import Foundation
import Testing

/// Sanitizer reports generated at test time with clang (`-fsanitize=address,undefined`),
/// symbolized and not (`ASAN_OPTIONS=symbolize=0`).
@Suite struct SanitizerReportReaderTests {
    static let useAfterFree = """
        #include <stdlib.h>
        int main(int argc, char **argv) {
          int *p = malloc(4 * sizeof(int));
          free(p);
          return p[argc];
        }

        """

    static let overflow = """
        #include <limits.h>
        int main(int argc, char **argv) { int x = INT_MAX; x += argc; return x == 0; }

        """

    static let leak = """
        #include <stdlib.h>
        int main(void) { void *p = malloc(7); p = 0; return p != 0; }

        """

    /// Compiles `source` with clang and `sanitizer`; nil (reason printed) without clang.
    static func build(_ source: String, name: String, sanitizer: String) throws -> String? {
        guard let clang = ProgramRunner.tool("clang") else {
            print("skipped: clang not found on PATH or in /opt/swift/usr/bin")
            return nil
        }
        let directory = try ProgramRunner.temporaryDirectory("sanitizer")
        return try ProgramRunner.compile(clang, source: source, name: name, in: directory, flags: ["-fsanitize=\(sanitizer)", "-g", "-O0"])
    }

    @Test(arguments: [true, false])
    func heapUseAfterFree(symbolized: Bool) throws {
        guard let binary = try Self.build(Self.useAfterFree, name: "uaf.c", sanitizer: "address") else { return }
        let result = try ProgramRunner.run(binary, [], environment: ["ASAN_OPTIONS": "symbolize=\(symbolized ? 1 : 0):detect_leaks=0"])
        #expect(result.status != 0)
        #expect(CrashReportParser.detectFormat(result.stderr) == .sanitizer)
        let document = try CrashReportParser.parse(result.stderr)
        let report = document.report
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect(report.format == .sanitizer)
        #expect(report.processID != nil)
        #expect(report.exception?.type == "AddressSanitizer")
        #expect(report.exception?.reason?.hasPrefix("heap-use-after-free") == true)
        #expect(report.exception?.faultAddress != nil)
        // The access, where it was freed, where it was allocated.
        #expect(report.threads.count == 3)
        #expect(report.threads[0].crashed && report.crashedThread == 0)
        #expect(report.threads[0].name?.hasPrefix("READ of size 4 at 0x") == true)
        #expect(report.threads[1].name == "freed by thread T0 here")
        #expect(report.threads[2].name == "previously allocated by thread T0 here")
        #expect(report.process == "uaf" && report.path == binary)
        let text = String(decoding: result.stderr, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for thread in report.threads {
            #expect(!thread.frames.isEmpty)
            for frame in thread.frames {
                #expect(frame.address != nil && !frame.isReturnAddress)
                let line = try #require(frame.line)
                #expect(text[line - 1].contains("#\(frame.index) 0x" + String(frame.address ?? 0, radix: 16)))
            }
        }
        let top = try #require(report.threads[0].frames.first)
        if symbolized {
            #expect(top.symbol == "main" && top.sourceLocation?.hasSuffix("uaf.c:5:10") == true)
        } else {
            #expect(top.symbol == nil && top.imageName == "uaf" && top.imageOffset != nil)
            #expect(report.binaryImages.contains { $0.path == binary })
            #expect(report.binaryImages.contains { $0.name.hasPrefix("libc.so") && $0.uuid?.count == 40 })
        }
    }

    @Test func undefinedBehaviorWithStack() throws {
        guard let binary = try Self.build(Self.overflow, name: "ub.c", sanitizer: "undefined") else { return }
        let result = try ProgramRunner.run(binary, [], environment: ["UBSAN_OPTIONS": "print_stacktrace=1"])
        let document = try CrashReportParser.parse(result.stderr)
        #expect(document.report.format == .sanitizer)
        #expect(document.report.exception?.type == "UndefinedBehaviorSanitizer")
        #expect(document.report.applicationSpecificInformation.first?.contains("signed integer overflow") == true)
        #expect(document.report.threads.first?.frames.first?.symbol == "main")
    }

    @Test func leak() throws {
        guard let binary = try Self.build(Self.leak, name: "leak.c", sanitizer: "address") else { return }
        let result = try ProgramRunner.run(binary, [], environment: ["ASAN_OPTIONS": "detect_leaks=1"])
        let report = try CrashReportParser.parse(result.stderr).report
        #expect(report.exception?.type == "LeakSanitizer")
        #expect(report.exception?.reason == "7 byte(s) leaked in 1 allocation(s).")
        #expect(report.threads.first?.name == "Direct leak of 7 byte(s) in 1 object(s) allocated from")
        #expect(report.threads.first?.frames.first?.symbol == "malloc")
    }

    /// ThreadSanitizer cannot be linked here (its runtime wants libdispatch): a report in
    /// compiler-rt's layout, written by hand.
    @Test func threadSanitizerDataRace() throws {
        let text = """
            ==================
            WARNING: ThreadSanitizer: data race (pid=4242)
              Write of size 4 at 0x55d0c0a1c014 by thread T1:
                #0 worker /src/race.c:4:22 (race+0x12a5)

              Previous write of size 4 at 0x55d0c0a1c014 by main thread:
                #0 main /src/race.c:5:60 (race+0x130b)

            SUMMARY: ThreadSanitizer: data race /src/race.c:4:22 in worker
            ==================
            """
        let document = try CrashReportParser.parse(Array(text.utf8))
        let report = document.report
        #expect(document.warnings.isEmpty)
        #expect(report.processID == 4242 && report.exception?.type == "ThreadSanitizer")
        #expect(report.exception?.reason == "data race /src/race.c:4:22 in worker")
        #expect(report.threads.map(\.name) == ["Write of size 4 at 0x55d0c0a1c014 by thread T1", "Previous write of size 4 at 0x55d0c0a1c014 by main thread"])
        let frame = try #require(report.threads.first?.frames.first)
        #expect(frame.address == nil && frame.symbol == "worker" && frame.sourceLocation == "/src/race.c:4:22")
        #expect(frame.imageName == "race" && frame.imageOffset == 0x12a5 && frame.line == 4)
    }

    @Test func frameForms() throws {
        let text = """
            ==1234==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000018 (pc 0x55d0c0a1b2c3 bp 0x1 sp 0x2 T0)
                #0 0x55d0c0a1b2c3 in foo(int, char) /src/a b/a.cc:12:5
                #1 0x7f0000001234 in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x2724a) (BuildId: 93AC61EC)
                #2 0x55d0c0a00000 (/path/bin+0x1234)
                #3 0xZZ in nothing
            """
        let document = try CrashReportParser.parse(Array(text.utf8))
        let frames = document.report.threads.first?.frames ?? []
        #expect(document.report.exception?.signal == "SIGSEGV" && document.report.exception?.faultAddress == 0x18)
        #expect(frames.count == 3)
        #expect(frames[0].symbol == "foo(int, char)" && frames[0].sourceLocation == "/src/a b/a.cc:12:5")
        #expect(frames[1].symbol == "__libc_start_main" && frames[1].imageName == "libc.so.6" && frames[1].imageOffset == 0x2724a)
        #expect(frames[2].symbol == nil && frames[2].imageName == "bin" && frames[2].imageOffset == 0x1234)
        #expect(document.report.binaryImages.first { $0.name == "libc.so.6" }?.uuid == "93ac61ec")
        #expect(document.warnings.contains { $0.line == 5 && $0.message.contains("0xZZ") })
    }
}
