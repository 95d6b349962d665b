import Foundation

/// Compiles and runs the small crashing programs the reader tests generate their logs from.
enum ProgramRunner {
    /// `name` on PATH or in the toolchain next to the running Swift (/opt/swift/usr/bin), or nil.
    static func tool(_ name: String) -> String? {
        var directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        directories.append("/opt/swift/usr/bin")
        for directory in directories {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: [UInt8]
        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments` and extra environment; output is read to the end
    /// on background threads, so a chatty child cannot block.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: [UInt8](errData))
    }

    /// A fresh temporary directory for one test's sources and binaries.
    static func temporaryDirectory(_ label: String) throws -> String {
        let path = NSTemporaryDirectory() + "devkit-crash-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Compiles `source` (written to `directory/name`) with `compiler` and `flags`; returns the
    /// binary's path or throws with the compiler's output.
    static func compile(_ compiler: String, source: String, name: String, in directory: String, flags: [String]) throws -> String {
        let sourcePath = "\(directory)/\(name)"
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        let binary = "\(directory)/\((name as NSString).deletingPathExtension)"
        let result = try run(compiler, flags + [sourcePath, "-o", binary])
        guard result.status == 0, FileManager.default.isExecutableFile(atPath: binary) else {
            throw CompileError(output: result.stdout + result.stderrText)
        }
        return binary
    }

    struct CompileError: Error, CustomStringConvertible {
        var output: String
        var description: String { "compile failed:\n" + output.split(separator: "\n").filter { !$0.contains("Cannot export local symbol") }.suffix(20).joined(separator: "\n") }
    }
}
