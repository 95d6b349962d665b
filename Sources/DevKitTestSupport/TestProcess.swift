import Foundation

/// Runs tools from tests: finds them in /opt/swift/usr/bin or on PATH, and runs them with
/// their output captured (stderr read on its own thread, so neither pipe fills and blocks).
public enum TestProcess {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The first of `names` found in /opt/swift/usr/bin or on PATH.
    public static func find(_ names: String...) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            for directory in ["/opt/swift/usr/bin"] + path.split(separator: ":").map(String.init) {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// Runs `tool`; `stdin` is written from its own thread (a large input cannot block on a
    /// full pipe while the tool waits for us to read its output).
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil,
                           cwd: URL? = nil, stdin: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let cwd { process.currentDirectoryURL = cwd }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            Thread {
                input.fileHandleForWriting.write(Data(stdin.utf8))
                try? input.fileHandleForWriting.close()
            }.start()
        }
        let errData = Captured()
        let errThread = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        errThread.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errData.done { usleep(1000) }
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData.value, as: UTF8.self))
    }

    private final class Captured: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private var finished = false
        func set(_ d: Data) { lock.withLock { data = d; finished = true } }
        var done: Bool { lock.withLock { finished } }
        var value: Data { lock.withLock { data } }
    }

    /// Runs `tool` with every signal unblocked. Test threads (Swift concurrency's, Dispatch's)
    /// block most signals and a spawned child inherits that mask: gdb then never sees its
    /// inferior's SIGCHLD (nor a SIGTERM) and waits forever. python3 resets the mask, then execs.
    @discardableResult
    public static func runWithSignalsUnblocked(_ tool: String, _ arguments: [String]) throws -> Output {
        guard let python = find("python3") else { return try run(tool, arguments) }
        let reset = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, set()); os.execv(sys.argv[1], sys.argv[1:])"
        return try run(python, ["-c", reset, tool] + arguments)
    }

    /// A fresh temporary directory.
    public static func temporaryDirectory(_ prefix: String = "devkit-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
