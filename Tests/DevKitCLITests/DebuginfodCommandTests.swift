import DevKitTestSupport
import Foundation
import Testing

/// `devkit symbolicate --binary` on a stripped binary whose debug file only a debuginfod
/// server has: elfutils' own `debuginfod` started here on a free port, serving the separate
/// debug file of Tests/SymbolicationTests/Fixtures/inline.c compiled here (`objcopy
/// --only-keep-debug`; the binary itself `strip --strip-debug`, its symbol table kept).
/// Fetched, the answers are exactly the unstripped binary's; with the server gone (or never
/// answering), symbol-table names and one warning, quickly; `--offline` never asks.
@Suite(.serialized) struct DebuginfodCommandTests {
    static let source = CLI.repoRoot.appendingPathComponent("Tests/SymbolicationTests/Fixtures/inline.c")

    struct Fixture {
        var directory: URL
        /// Built with -g: the output the fetched debug file must reproduce.
        var full: String
        /// The same binary without DWARF, and no debuglink: nothing local describes it.
        var stripped: String
        /// Holds only the separate debug file: what the server serves.
        var served: URL
        var buildID: String
        /// Every byte of `compute` (three inlined levels) and `main`, as hex arguments.
        var addresses: [String]

        /// A fresh directory for libdebuginfod's cache (`DEBUGINFOD_CACHE_PATH`).
        func clientCache(_ name: String) -> String { directory.appendingPathComponent("client-cache-\(name)").path }

        /// The environment of every run: devkit's index cache kept in the test's directory.
        func environment(_ extra: [String: String]) -> [String: String] {
            extra.merging(["XDG_CACHE_HOME": directory.appendingPathComponent("xdg").path]) { a, _ in a }
        }
    }

    /// The binaries and the served directory; nil (skipped, said so) only without the
    /// `debuginfod` program. The compiler and binutils are required (Scripts/install-deps).
    static func fixture() throws -> Fixture? {
        guard DebuginfodServer.program != nil else {
            print("skipped: debuginfod not installed")
            return nil
        }
        let compiler = try #require(TestProcess.find("cc", "clang", "gcc"), "no C compiler")
        let objcopy = try #require(TestProcess.find("objcopy"), "no objcopy (binutils)")
        let strip = try #require(TestProcess.find("strip"), "no strip (binutils)")
        let readelf = try #require(TestProcess.find("readelf"), "no readelf (binutils)")
        let nm = try #require(TestProcess.find("nm"), "no nm (binutils)")
        let directory = try CLI.temporaryDirectory()
        let served = directory.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let full = directory.appendingPathComponent("inline-full").path
        let stripped = directory.appendingPathComponent("inline").path
        let build = try TestProcess.run(compiler, ["-O2", "-g", "-Wl,--build-id", "-fdebug-prefix-map=\(source.deletingLastPathComponent().path)=/src",
                                                   source.path, "-o", full])
        try #require(build.status == 0, "\(build.stderr)")
        try #require(try TestProcess.run(objcopy, ["--only-keep-debug", full, served.appendingPathComponent("inline.debug").path]).status == 0)
        try FileManager.default.copyItem(atPath: full, toPath: stripped)
        try #require(try TestProcess.run(strip, ["--strip-debug", stripped]).status == 0)

        let notes = try TestProcess.run(readelf, ["-n", full]).stdout
        let buildID = try #require(notes.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "Build ID: ") else { return nil }
            return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
        }.first)
        var addresses: [String] = []
        for line in try TestProcess.run(nm, ["-S", full]).stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, ["compute", "main"].contains(fields[3]),
                  let start = UInt64(fields[0], radix: 16), let size = UInt64(fields[1], radix: 16) else { continue }
            addresses += (start..<(start + size)).map { "0x" + String($0, radix: 16) }
        }
        try #require(addresses.count > 40)
        return Fixture(directory: directory, full: full, stripped: stripped, served: served, buildID: buildID, addresses: addresses)
    }

    /// Fetched by build-id, the stripped binary answers exactly as the unstripped one
    /// (functions, file:line:column, inlined calls), from DEBUGINFOD_URLS or --debuginfod; the
    /// copy in libdebuginfod's cache answers with the server gone; without it, symbol-table
    /// names and one warning naming the build-id and the server's error, exit status 0.
    @Test func aFetchedDebugFileAnswersAsTheUnstrippedBinary() throws {
        guard let fixture = try Self.fixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        guard let server = try DebuginfodServer.start(serving: fixture.served, work: fixture.directory) else { return }
        defer { server.stop() }

        let expected = try CLI.run(["symbolicate", "--no-cache", "--binary", fixture.full] + fixture.addresses)
        #expect(expected.status == 0 && expected.stderr.isEmpty, "\(expected.stderr)")
        // What the debug file adds: inlined calls and source positions.
        #expect(expected.stdout.contains("hash_step\n/src/inline.c:"))
        let offline = try CLI.run(["symbolicate", "--offline", "--binary", fixture.stripped] + fixture.addresses,
                                  environment: fixture.environment(["DEBUGINFOD_URLS": server.url]))
        #expect(offline.status == 0 && offline.stderr.isEmpty, "\(offline.stderr)")
        #expect(offline.stdout != expected.stdout)
        #expect(offline.stdout.contains("compute\n") && !offline.stdout.contains("hash_step") && !offline.stdout.contains("inline.c"))

        let cache = fixture.clientCache("shared")
        let fetched = try CLI.run(["symbolicate", "--binary", fixture.stripped] + fixture.addresses,
                                  environment: fixture.environment(["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": cache]))
        #expect(fetched.status == 0)
        #expect(fetched.stderr == "")
        #expect(fetched.stdout == expected.stdout)
        #expect(server.requests(of: "debuginfo") == 1)
        #expect(FileManager.default.fileExists(atPath: "\(cache)/\(fixture.buildID)/debuginfo"))

        // --debuginfod names the server when DEBUGINFOD_URLS does not.
        let named = try CLI.run(["symbolicate", "--debuginfod", server.url, "--binary", fixture.stripped] + fixture.addresses,
                                environment: fixture.environment(["DEBUGINFOD_URLS": "", "DEBUGINFOD_CACHE_PATH": fixture.clientCache("named")]))
        #expect(named.status == 0 && named.stderr.isEmpty, "\(named.stderr)")
        #expect(named.stdout == expected.stdout)
        #expect(server.requests(of: "debuginfo") == 2)

        server.stop()
        let cached = try CLI.run(["symbolicate", "--binary", fixture.stripped] + fixture.addresses,
                                 environment: fixture.environment(["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": cache]))
        #expect(cached.status == 0 && cached.stderr.isEmpty, "\(cached.stderr)")
        #expect(cached.stdout == expected.stdout)

        let started = Date()
        let down = try CLI.run(["symbolicate", "--binary", fixture.stripped] + fixture.addresses,
                               environment: fixture.environment(["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": fixture.clientCache("down")]))
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(down.status == 0)
        #expect(down.stdout == offline.stdout)
        #expect(down.stderr == "\(fixture.stripped): warning: no debug info for build-id \(fixture.buildID) from debuginfod (\(server.url)): Connection refused; symbol-table names only\n")
    }

    /// A Swift backtrace (Linux) naming the binary at a path where it is not: its executable
    /// and debug file are fetched by build-id, and the crashed thread reads exactly as with the
    /// unstripped binary found through --search-path; with the server gone, the image is
    /// missing and one warning says why.
    @Test func aCrashLogsMissingImageIsFetchedByBuildID() throws {
        guard let fixture = try Self.fixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        // The server also has the stripped executable; --search-path has the unstripped one.
        try FileManager.default.copyItem(atPath: fixture.stripped, toPath: fixture.served.appendingPathComponent("inline").path)
        let local = fixture.directory.appendingPathComponent("local")
        try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture.full, toPath: local.appendingPathComponent("inline").path)
        guard let server = try DebuginfodServer.start(serving: fixture.served, work: fixture.directory) else { return }
        defer { server.stop() }

        // Loaded at 0x555555554000 (the binary is position-independent, linked at 0); the
        // first address is the PC, the others return addresses.
        let base: UInt64 = 0x5555_5555_4000
        let frames = fixture.addresses.enumerated().map { index, address in
            let runtime = base + UInt64(address.dropFirst(2), radix: 16)!
            let hex = String(runtime, radix: 16)
            return "  \(index) \(index == 0 ? "    " : "[ra]") 0x\(String(repeating: "0", count: 16 - hex.count) + hex) in inline"
        }
        let log = fixture.directory.appendingPathComponent("crash.txt")
        try ("*** Program crashed: Bad pointer dereference at 0x0000000000000000 ***\n\n"
             + "Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))\n\nThread 0 crashed:\n\n"
             + frames.joined(separator: "\n")
             + "\n\nImages:\n\n0x0000555555554000–0x0000555555558000 \(fixture.buildID) inline /nonexistent/inline\n")
            .write(to: log, atomically: true, encoding: .utf8)

        // --format same: every frame, inlined calls as extra lines.
        let expected = try CLI.run(["symbolicate", "--format", "same", log.path, "-s", local.path], environment: fixture.environment([:]))
        #expect(expected.status == 0 && expected.stderr.isEmpty, "\(expected.stderr)")
        #expect(expected.stdout.contains("[inlined]") && expected.stdout.contains(" at /src/inline.c:"))

        let cache = fixture.clientCache("crash")
        let environment = fixture.environment(["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": cache])
        let fetched = try CLI.run(["symbolicate", "--format", "same", log.path], environment: environment)
        #expect(fetched.status == 0 && fetched.stderr.isEmpty, "\(fetched.stderr)")
        #expect(fetched.stdout == expected.stdout)
        #expect(server.requests(of: "executable") == 1 && server.requests(of: "debuginfo") == 1)
        let summary = try CLI.run(["symbolicate", log.path], environment: environment)
        #expect(summary.stdout.contains("found      inline \(fixture.buildID): \(cache)/\(fixture.buildID)/debuginfo (binary \(cache)/\(fixture.buildID)/executable)"),
                "\(summary.stdout)")

        server.stop()
        let down = try CLI.run(["symbolicate", log.path],
                               environment: fixture.environment(["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": fixture.clientCache("crash-down")]))
        #expect(down.status == 0)
        #expect(down.stdout.contains("images: 0 found, 0 mismatched, 1 missing"))
        #expect(down.stderr == "\(log.path): warning: inline: no executable for build-id \(fixture.buildID) from debuginfod (\(server.url)): Connection refused\n")
    }

    /// A core whose program is gone from the path its notes name: the executable (stripped)
    /// and its debug file come from the server by build-id, and the crashed thread reads
    /// exactly as with the unstripped program given as --executable.
    @Test func aCoresMissingExecutableIsFetchedByBuildID() throws {
        guard DebuginfodServer.program != nil else {
            print("skipped: debuginfod not installed")
            return
        }
        let compiler = try #require(TestProcess.find("cc", "clang", "gcc"), "no C compiler")
        let gdb = try #require(TestProcess.find("gdb"), "no gdb (it makes the core)")
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = directory.appendingPathComponent("served"), local = directory.appendingPathComponent("local"),
            run = directory.appendingPathComponent("run")
        for made in [served, local, run] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        let source = directory.appendingPathComponent("segv.c")
        try """
            __attribute__((noinline)) int read_field(int *p) { return p[4]; }
            __attribute__((noinline)) int handle(int *p) { return read_field(p) + 1; }
            int main(void) { return handle((int *)0); }

            """.write(to: source, atomically: true, encoding: .utf8)
        let full = local.appendingPathComponent("segv").path, program = run.appendingPathComponent("segv").path
        try #require(try TestProcess.run(compiler, ["-g", "-O0", "-Wl,--build-id", source.path, "-o", full]).status == 0)
        let objcopy = try #require(TestProcess.find("objcopy")), strip = try #require(TestProcess.find("strip"))
        try #require(try TestProcess.run(objcopy, ["--only-keep-debug", full, served.appendingPathComponent("segv.debug").path]).status == 0)
        try FileManager.default.copyItem(atPath: full, toPath: program)
        try #require(try TestProcess.run(strip, ["--strip-debug", program]).status == 0)
        try FileManager.default.copyItem(atPath: program, toPath: served.appendingPathComponent("segv").path)
        let core = directory.appendingPathComponent("core").path
        let timeout = TestProcess.find("timeout") ?? "/usr/bin/timeout"
        try TestProcess.runWithSignalsUnblocked(timeout, ["-s", "KILL", "60", gdb, "-nx", "-batch", "-ex", "run",
                                                          "-ex", "generate-core-file \(core)", "--args", program])
        try #require(FileManager.default.fileExists(atPath: core), "gdb wrote no core")
        try FileManager.default.removeItem(atPath: program)

        func thread(_ output: String) -> String { output.components(separatedBy: "\nimages:").first ?? output }
        let environment = ["XDG_CACHE_HOME": directory.appendingPathComponent("xdg").path]
        let expected = try CLI.run(["symbolicate", core, "--executable", full], environment: environment)
        #expect(expected.status == 0, "\(expected.stderr)")
        #expect(expected.stdout.contains("read_field + 12 (segv.c:1:"), "\(expected.stdout)")
        let unfetched = try CLI.run(["symbolicate", core], environment: environment)
        #expect(!unfetched.stdout.contains("read_field"))

        guard let server = try DebuginfodServer.start(serving: served, work: directory) else { return }
        defer { server.stop() }
        let cache = directory.appendingPathComponent("client-cache").path
        let fetched = try CLI.run(["symbolicate", core],
                                  environment: environment.merging(["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": cache]) { a, _ in a })
        #expect(fetched.status == 0)
        #expect(thread(fetched.stdout) == thread(expected.stdout))
        // libdwfl unwinds before images are resolved, so without the program's CFI it may say
        // where the stack ended ("unwinding stopped" after _start); nothing else, and no
        // debuginfod warning (the vDSO, which the server lacks, is asked for and not warned of).
        #expect(fetched.stderr.split(separator: "\n").allSatisfy { $0.contains(": warning: tid ") && $0.contains("unwinding stopped") },
                "\(fetched.stderr)")
        let buildID = try #require(fetched.stdout.components(separatedBy: "found      segv ").dropFirst().first?.prefix { $0.isHexDigit })
        #expect(fetched.stdout.contains("found      segv \(buildID): \(cache)/\(buildID)/debuginfo (binary \(cache)/\(buildID)/executable)"),
                "\(fetched.stdout)")
        #expect(FileManager.default.fileExists(atPath: "\(cache)/\(buildID)/executable"))
    }

    /// A build-id the server does not have (the same source built at -O1, stripped, never
    /// served): the server answers 404, and the warning says so; in a crash log that is left
    /// unsaid, while a server that fails is still one warning.
    @Test func aBuildIDTheServerLacksIsOneWarning() throws {
        guard let fixture = try Self.fixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        guard let server = try DebuginfodServer.start(serving: fixture.served, work: fixture.directory) else { return }
        defer { server.stop() }
        let other = fixture.directory.appendingPathComponent("other").path
        let compiler = try #require(TestProcess.find("cc", "clang", "gcc"))
        try #require(try TestProcess.run(compiler, ["-O1", "-g", "-Wl,--build-id", Self.source.path, "-o", other]).status == 0)
        try #require(try TestProcess.run(try #require(TestProcess.find("strip")), ["--strip-debug", other]).status == 0)
        let notes = try TestProcess.run(try #require(TestProcess.find("readelf")), ["-n", other]).stdout
        let buildID = try #require(notes.components(separatedBy: "Build ID: ").dropFirst().first?.prefix { $0.isHexDigit })
        #expect(buildID != fixture.buildID)
        let result = try CLI.run(["symbolicate", "--binary", other, "0x0"],
                                 environment: fixture.environment(["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": fixture.clientCache("absent")]))
        #expect(result.status == 0)
        #expect(result.stderr == "\(other): warning: no debug info for build-id \(buildID) from debuginfod (\(server.url)): not found on the server (No such file or directory); symbol-table names only\n")
        #expect(server.requests(of: "debuginfo") == 1)

        // In a crash log, whose system libraries often have no DWARF anywhere, a debug file
        // the server lacks is no warning (the frames show symbol names); a failing server is.
        let log = fixture.directory.appendingPathComponent("other-crash.txt")
        try ("*** Program crashed: Bad pointer dereference at 0x0000000000000000 ***\n\n"
             + "Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))\n\nThread 0 crashed:\n\n"
             + "  0      0x0000555555555140 in other\n\nImages:\n\n"
             + "0x0000555555554000–0x0000555555558000 \(buildID) other \(other)\n").write(to: log, atomically: true, encoding: .utf8)
        let quiet = try CLI.run(["symbolicate", log.path],
                                environment: fixture.environment(["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": fixture.clientCache("absent-log")]))
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(quiet.stdout.contains("images: 1 found, 0 mismatched, 0 missing"))
        #expect(server.requests(of: "debuginfo") == 2)
        server.stop()
        let failing = try CLI.run(["symbolicate", log.path],
                                  environment: fixture.environment(["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": fixture.clientCache("absent-down")]))
        #expect(failing.status == 0)
        #expect(failing.stderr == "\(log.path): warning: \(other): no debug info for build-id \(buildID) from debuginfod (\(server.url)): Connection refused; symbol-table names only\n")
    }

    /// `--offline`: the server is never asked (its request counter stays at 0, libdebuginfod's
    /// cache is never made) although DEBUGINFOD_URLS names it.
    @Test func offlineNeverAsksTheServer() throws {
        guard let fixture = try Self.fixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        guard let server = try DebuginfodServer.start(serving: fixture.served, work: fixture.directory) else { return }
        defer { server.stop() }
        let cache = fixture.clientCache("offline")
        let result = try CLI.run(["symbolicate", "--offline", "--binary", fixture.stripped] + fixture.addresses,
                                 environment: fixture.environment(["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": cache]))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("compute\n") && !result.stdout.contains("hash_step"))
        #expect(server.requests(of: "debuginfo") == 0)
        #expect(!FileManager.default.fileExists(atPath: cache))
        // The same run without --offline does ask: the counter can move.
        _ = try CLI.run(["symbolicate", "--binary", fixture.stripped, fixture.addresses[0]],
                        environment: fixture.environment(["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": cache]))
        #expect(server.requests(of: "debuginfo") == 1)
    }

    /// A server that accepts connections and never answers costs DEBUGINFOD_TIMEOUT (here the
    /// user's 1 s) for each of libdebuginfod's three attempts, then the same fallback:
    /// symbol-table names and one warning.
    @Test func aServerThatNeverAnswersCostsOnlyTheTimeout() throws {
        guard let fixture = try Self.fixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let silent = try LoopbackSocket()
        defer { silent.close() }
        let url = "http://127.0.0.1:\(silent.port)"
        let started = Date()
        let result = try CLI.run(["symbolicate", "--binary", fixture.stripped, fixture.addresses[0]],
                                 environment: fixture.environment(["DEBUGINFOD_URLS": url, "DEBUGINFOD_TIMEOUT": "1",
                                                                   "DEBUGINFOD_CACHE_PATH": fixture.clientCache("silent")]))
        // Not a speed check: an unbounded wait would take minutes; a loaded machine gets room.
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 30, "took \(elapsed) s")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("compute\n"))
        #expect(result.stderr == "\(fixture.stripped): warning: no debug info for build-id \(fixture.buildID) from debuginfod (\(url)): no progress within DEBUGINFOD_TIMEOUT (Timer expired); symbol-table names only\n")
    }

    /// The run's deadline (DEVKIT_DEBUGINFOD_DEADLINE, here 2 s) cancels, through the progress
    /// function, a transfer that DEBUGINFOD_TIMEOUT (60 s here) would let wait.
    @Test func theDeadlineCancelsAWaitingTransfer() throws {
        guard let fixture = try Self.fixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let silent = try LoopbackSocket()
        defer { silent.close() }
        let url = "http://127.0.0.1:\(silent.port)"
        let started = Date()
        let result = try CLI.run(["symbolicate", "--debuginfod", url, "--binary", fixture.stripped, fixture.addresses[0]],
                                 environment: fixture.environment(["DEBUGINFOD_TIMEOUT": "60", "DEVKIT_DEBUGINFOD_DEADLINE": "2",
                                                                   "DEBUGINFOD_CACHE_PATH": fixture.clientCache("deadline")]))
        // Not a speed check: cancelled at the deadline, not after the 60 s timeout; a loaded
        // machine gets room.
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 2 && elapsed < 45, "took \(elapsed) s")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("compute\n"))
        #expect(result.stderr == "\(fixture.stripped): warning: no debug info for build-id \(fixture.buildID) from debuginfod (\(url)): no answer within 2 s (devkit's deadline for all fetches); symbol-table names only\n")
    }
}
