import Foundation

/// elfutils' own `debuginfod` serving the ELF files under one directory (executables and
/// separate debug files, by build-id) on a free port, for tests of devkit fetching from it.
/// Killed by `stop()` or when released. Its SQLite index lives in the given directory.
public final class DebuginfodServer {
    public let port: Int
    /// `http://127.0.0.1:PORT`, a value for `DEBUGINFOD_URLS`.
    public var url: String { "http://127.0.0.1:\(port)" }
    private let process: Process

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    deinit { stop() }

    /// The `debuginfod` program, nil when it is not installed (Debian package `debuginfod`).
    public static var program: String? { TestProcess.find("debuginfod") }

    /// Starts a server on `served` and waits (up to 20 s) until it has scanned it; nil, with
    /// "skipped: debuginfod not installed" printed, when the program is missing.
    public static func start(serving served: URL, work: URL) throws -> DebuginfodServer? {
        guard let program else {
            print("skipped: debuginfod not installed")
            return nil
        }
        // A port found free can be taken before the server binds it: try a few.
        var lastLog = ""
        for attempt in 0..<3 {
            let port = try LoopbackSocket.freePort()
            let log = work.appendingPathComponent("debuginfod-\(attempt).log")
            FileManager.default.createFile(atPath: log.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            // -F: the ELF files under the directory; -d: its index; -p: the port. The scan it
            // makes at start is all a test needs.
            process.arguments = ["-F", served.path, "-p", String(port), "-d", work.appendingPathComponent("index-\(attempt).sqlite").path, "-v"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let server = DebuginfodServer(process: process, port: port)
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning, Date() < deadline {
                // The traverse thread counts one unit of work when its first scan is done.
                if let metrics = LoopbackSocket.get(port: port, path: "/metrics"),
                   let done = Self.metric(metrics, "thread_work_total{role=\"traverse\"}"), done >= 1 {
                    return server
                }
                usleep(100_000)
            }
            server.stop()
            lastLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
        throw LoopbackSocket.Failure("debuginfod did not start: \(lastLog.suffix(600))")
    }

    /// The value of one line of the server's `/metrics` (nil when absent or unreachable):
    /// `requests(of: "debuginfo")` is `http_requests_total{type="debuginfo"}`, the number of
    /// debug files asked for.
    public func requests(of type: String) -> Int? {
        guard let metrics = LoopbackSocket.get(port: port, path: "/metrics") else { return nil }
        return Self.metric(metrics, "http_requests_total{type=\"\(type)\"}") ?? 0
    }

    private static func metric(_ text: String, _ name: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1)).map { Int($0) }
        }
        return nil
    }

    /// Kills the server (SIGKILL: a child of a test thread may have SIGTERM blocked) and waits
    /// for it, so its port refuses connections afterwards.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
