import Foundation
import Testing

/// Runs the `devkit` binary built beside the test bundle and compares against golden files.
enum CLI {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = repoRoot.appendingPathComponent("Samples")
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static var binary: URL {
        // The test bundle lives in the build products directory, beside the executable.
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidate = products.appendingPathComponent("devkit")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return repoRoot.appendingPathComponent(".build/debug/devkit")
    }

    final class DataBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = Data()
        private var finished = false
        var data: Data {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue; finished = true } }
        }
        var done: Bool { lock.withLock { finished } }
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutBytes: Data
    }

    @discardableResult
    /// `launcher` runs devkit through another program (e.g. `setpriv` to drop root).
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], cwd: URL? = nil, launcher: [String] = []) throws -> Result {
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = cwd ?? repoRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        // A DEBUGINFOD_URLS of the machine (Debian's profile.d sets one) would make every run
        // on a binary without local DWARF ask that server: tests that want one set it.
        env["DEBUGINFOD_URLS"] = nil
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // stderr is drained on another thread so neither pipe can fill up and block the child.
        let errBox = DataBox()
        let errThread = Thread { errBox.data = err.fileHandleForReading.readDataToEndOfFile() }
        errThread.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errBox.done { usleep(1000) }
        let errData = errBox.data
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: outData)
    }

    /// Compares `actual` with Snapshots/NAME; RECORD_SNAPSHOTS=1 rewrites the file and fails.
    static func assertSnapshot(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = snapshots.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded snapshot \(name); run again without RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing snapshot \(name) (run with RECORD_SNAPSHOTS=1)", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "snapshot \(name)", sourceLocation: sourceLocation)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
