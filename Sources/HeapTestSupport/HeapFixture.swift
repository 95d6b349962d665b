import DevKitTestSupport
import Foundation
import HeapAnalysis
import HeapSymbolication

/// Builds the recorder's test programs (Tests/HeapRecorderTests/Programs) and records them
/// with the built `devkit`; shared by the heap test targets.
public enum HeapFixture {
    /// Tests/HeapRecorderTests/Programs: the C and Swift programs the recorder is tested on.
    public static let programs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Tests/HeapRecorderTests/Programs").standardized
    public static let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    public static var devkit: String {
        let beside = products.appendingPathComponent("devkit").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return programs.appendingPathComponent("../../../.build/debug/devkit").standardized.path
    }

    public struct Run {
        public var status: Int32
        public var stderr: String
        public var recordingPath: String
    }

    /// A fresh directory per call.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-heap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], cwd: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try TestProcess.run(executable, arguments, cwd: cwd)
        return (result.status, result.stdout, result.stderr)
    }

    public static func compiler() -> String? {
        for candidate in ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return nil
    }

    /// Compiles workload.c and plugin.c once per test process.
    public static let built: Result<URL, any Error> = Result {
        guard let cc = compiler() else { throw FixtureError(message: "no C compiler (cc, gcc or clang)") }
        let directory = try temporaryDirectory()
        let workload = directory.appendingPathComponent("workload").path
        let plugin = directory.appendingPathComponent("libplugin.so").path
        for arguments in [
            ["-g", "-O1", "-pthread", programs.appendingPathComponent("workload.c").path, "-o", workload, "-ldl"],
            ["-g", "-O1", "-shared", "-fPIC", programs.appendingPathComponent("plugin.c").path, "-o", plugin],
        ] {
            let result = try run(cc, arguments)
            guard result.status == 0 else { throw FixtureError(message: "cc failed: \(result.stderr)") }
        }
        return directory
    }

    public struct FixtureError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }

        public init(message: String) { self.message = message }
    }

    /// `devkit heap record -o DIR/NAME.dkheap [options] -- program arguments`.
    public static func record(_ program: String, _ arguments: [String], options: [String] = [], name: String = "run") throws -> Run {
        let directory = try temporaryDirectory()
        let output = directory.appendingPathComponent("\(name).dkheap").path
        let result = try run(devkit, ["heap", "record", "-o", output] + options + ["--", program] + arguments, cwd: directory)
        return Run(status: result.status, stderr: result.stderr, recordingPath: output)
    }

    /// Runs `program` with the recorder preloaded by hand (not through `devkit heap record`,
    /// which sets the recorder's environment itself), with `environment` added.
    public static func preloaded(_ program: String, _ arguments: [String], environment: [String: String], name: String) throws -> Run {
        let directory = try temporaryDirectory()
        let output = directory.appendingPathComponent("\(name).dkheap").path
        let agent = URL(fileURLWithPath: devkit).deletingLastPathComponent().appendingPathComponent("libdevkit-heap.so").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DEVKIT_HEAP_") }
            .merging(["LD_PRELOAD": agent, "DEVKIT_HEAP_OUTPUT": output]) { $1 }.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stderr: "", recordingPath: output)
    }

    public static func workload(_ mode: String, _ extra: [String] = [], options: [String] = []) throws -> (Run, HeapRecording) {
        let directory = try built.get()
        let run = try record(directory.appendingPathComponent("workload").path, [mode] + extra, options: options, name: mode)
        return (run, try load(run.recordingPath))
    }

    public static func load(_ path: String) throws -> HeapRecording {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return try RecordingReader.read(bytes, path: path)
    }

    /// Surviving blocks of `generation` grouped by `key`, as key → (count, bytes).
    public static func survivors(_ recording: HeapRecording, generation: Int? = nil, until horizon: HeapTimeline.Horizon = .end,
                          by key: HeapGroupKey = .type) -> [String: (count: Int, bytes: UInt64)] {
        let timeline = HeapTimeline(recording)
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer()), key: key)
        let blocks = generation.map { timeline.survivors(of: $0, until: horizon) } ?? timeline.blocks.filter(\.isAliveAtEnd)
        var result: [String: (count: Int, bytes: UInt64)] = [:]
        for group in grouper.groups(blocks) { result[group.key] = (group.count, group.bytes) }
        return result
    }
}
