import CrashReport
import CrashSymbolication
import DevKitTestSupport
import Foundation
import Symbolication
import Testing

/// An AddressSanitizer report made at test time twice, with `symbolize=0` and `symbolize=1`
/// (ASan's own symbolizer: llvm-symbolizer): devkit's symbolication of the first must name
/// the functions and source positions ASan printed in the second, for the program's frames.
@Suite struct SanitizerCrashTests {
    static let source = """
        #include <stdlib.h>
        __attribute__((noinline)) int read_freed(int *p) { return p[2]; }
        __attribute__((noinline)) int owner(int n) { int *p = malloc(sizeof(int) * n); free(p); return read_freed(p); }
        int main(int argc, char **argv) { (void)argv; return owner(argc + 9); }

        """

    @Test func asanFramesEqualASansOwnSymbolization() throws {
        guard let clang = TestProcess.find("clang"), let symbolizer = TestProcess.find("llvm-symbolizer") else {
            print("skipped: clang or llvm-symbolizer missing")
            return
        }
        let directory = try TestProcess.temporaryDirectory("devkit-asan")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("uaf.c"), program = directory.appendingPathComponent("uaf").path
        try Self.source.write(to: file, atomically: true, encoding: .utf8)
        let built = try TestProcess.run(clang, ["-g", "-O0", "-fsanitize=address", file.path, "-o", program])
        guard built.status == 0 else {
            print("skipped: clang -fsanitize=address failed here: \(built.stderr.suffix(200))")
            return
        }
        func report(symbolize: Int) throws -> CrashReport {
            var environment = ProcessInfo.processInfo.environment
            environment["ASAN_OPTIONS"] = "symbolize=\(symbolize):detect_leaks=0"
            environment["ASAN_SYMBOLIZER_PATH"] = symbolizer
            // ASLR off: both runs at the same addresses.
            let setarch = try #require(TestProcess.find("setarch"))
            let result = try TestProcess.run(setarch, ["-R", program], environment: environment)
            #expect(result.status != 0)
            return try CrashReportParser.parse(Array(result.stderr.utf8)).report
        }
        let raw = try report(symbolize: 0), symbolized = try report(symbolize: 1)
        #expect(raw.format == .sanitizer && symbolized.format == .sanitizer)

        var options = SymbolicationOptions()
        options.cacheDirectory = nil
        let crash = CrashSymbolicator(resolver: ImageResolver(catalog: ImageCatalog(searchPaths: [])), options: options).symbolicate(raw)
        var compared = 0
        for (position, thread) in raw.threads.enumerated() {
            let theirs = symbolized.threads[position].frames
            for (frame, result) in zip(thread.frames, crash.threads[position]) where frame.imageName == "uaf" {
                // The program's own code (ASan's interceptors, linked in, are named by ASan
                // without their `__interceptor_` prefix: its quirk, not compared).
                guard let expected = theirs.first(where: { $0.index == frame.index }), let location = expected.sourceLocation,
                      location.hasPrefix(file.path) else { continue }
                let symbols = try #require(result.symbols)
                let innermost = try #require(symbols.frames.first)
                #expect(innermost.function == expected.symbol, "frame \(frame.index)")
                #expect("\(innermost.file ?? "?"):\(innermost.line):\(innermost.column)" == location, "frame \(frame.index)")
                compared += 1
            }
        }
        // read_freed, owner, main (the access); owner, main (the free); owner, main (the malloc).
        #expect(compared == 7)
    }
}
