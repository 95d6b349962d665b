import DevKitTestSupport
import Foundation

/// A crashed program and its core, made at test time: `Programs/threads-crash.c` compiled with
/// `cc -g -O0 -pthread`, run under `gdb -batch`, which writes the core with
/// `generate-core-file` when the program faults (so the system's core_pattern does not matter).
struct CoreFixture: Sendable {
    var directory: URL
    var program: String
    var core: String

    /// Why the fixture could not be made when a tool is missing (the tests then skip).
    static let shared: Result<CoreFixture, SkipReason> = make(name: "threads-crash")

    struct SkipReason: Error, CustomStringConvertible {
        var description: String
    }

    /// Compiles the program as `name` in a fresh directory and crashes it under gdb.
    static func make(name: String) -> Result<CoreFixture, SkipReason> {
        for tool in ["gdb", "eu-stack", "readelf"] where Tool.find(tool) == nil {
            return .failure(SkipReason(description: "\(tool) is not installed"))
        }
        guard let compiler = ["/opt/swift/usr/bin/clang", "/usr/bin/cc"].first(where: FileManager.default.isExecutableFile) else {
            return .failure(SkipReason(description: "no C compiler (clang or cc)"))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-core-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Programs/threads-crash.c").path
        let program = directory.appendingPathComponent(name).path
        let core = directory.appendingPathComponent("core").path
        let compiled = Tool.run(compiler, ["-g", "-O0", "-pthread", "-Wl,--build-id", source, "-o", program])
        guard compiled.status == 0 else {
            return .failure(SkipReason(description: "\(compiler) failed: \(compiled.error)"))
        }
        // Signals unblocked (see TestProcess.runWithSignalsUnblocked: a test thread's blocked
        // SIGCHLD makes gdb wait forever); KILL because a stuck gdb ignores TERM.
        let arguments = ["-s", "KILL", "120", Tool.find("gdb") ?? "gdb", "-nx", "-batch", "-ex", "run", "-ex", "generate-core-file \(core)", "--args", program]
        let ran = try? TestProcess.runWithSignalsUnblocked(Tool.find("timeout") ?? "/usr/bin/timeout", arguments)
        let gdb = (output: ran?.stdout ?? "", error: ran?.stderr ?? "could not run gdb")
        guard FileManager.default.fileExists(atPath: core) else {
            return .failure(SkipReason(description: "gdb wrote no core (ptrace not permitted?): \(gdb.output.suffix(300)) \(gdb.error.suffix(300))"))
        }
        return .success(CoreFixture(directory: directory, program: program, core: core))
    }

    /// `eu-stack -q -n 0 --core CORE --executable PROG`: each thread's PCs by tid, in order.
    func euStackPCs(executable: String? = nil) -> [Int64: [UInt64]] {
        let arguments = ["-q", "-n", "0", "--core", core, "--executable", executable ?? program]
        let result = Tool.run(Tool.find("eu-stack") ?? "eu-stack", arguments)
        var threads: [Int64: [UInt64]] = [:]
        var current: Int64?
        for line in result.output.split(separator: "\n") {
            // "TID 1234:" starts a thread; "#3  0x00007ffff7e5e1f5" is one of its frames.
            if line.hasPrefix("TID "), let tid = Int64(line.dropFirst(4).dropLast()) {
                current = tid
                threads[tid] = []
            } else if line.hasPrefix("#"), let current,
                      let hex = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first,
                      hex.hasPrefix("0x"), let pc = UInt64(hex.dropFirst(2), radix: 16) {
                threads[current, default: []].append(pc)
            }
        }
        return threads
    }

    /// The executable's build-id as `readelf -n` prints it (`Build ID: 61f5…`).
    func readelfBuildID() -> String? {
        let result = Tool.run(Tool.find("readelf") ?? "readelf", ["-n", program])
        return result.output.split(separator: "\n").lazy
            .compactMap { line in line.range(of: "Build ID: ").map { String(line[$0.upperBound...]).trimmingCharacters(in: .whitespaces) } }
            .first
    }
}

/// Runs command-line tools for the fixtures.
enum Tool {
    static func find(_ name: String) -> String? { TestProcess.find(name) }

    /// `(status, stdout, stderr)`; status -1 when the tool could not be started.
    static func run(_ path: String, _ arguments: [String]) -> (status: Int32, output: String, error: String) {
        guard let result = try? TestProcess.run(path, arguments) else { return (-1, "", "could not run \(path)") }
        return (result.status, result.stdout, result.stderr)
    }
}

