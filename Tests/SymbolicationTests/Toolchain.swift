import DevKitTestSupport
import Foundation
import Testing

/// Compilers and the llvm-symbolizer oracle, run at test time on the sources in Fixtures/.
enum Toolchain {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let swiftBin = "/opt/swift/usr/bin"

    /// The first of `names` found in /opt/swift/usr/bin or on PATH.
    static func find(_ names: String...) -> String? {
        names.lazy.compactMap { TestProcess.find($0) }.first
    }

    static var llvmSymbolizer: String? { find("llvm-symbolizer") }

    typealias Output = TestProcess.Output

    @discardableResult
    static func run(_ tool: String, _ arguments: [String], stdin: String? = nil) throws -> Output {
        try TestProcess.run(tool, arguments, stdin: stdin)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-sym-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Compiles `source` (in Fixtures/) with `compiler` and `flags` into `directory`; nil if
    /// the compiler is not installed.
    static func compile(_ source: String, compiler: String, flags: [String], output: String, in directory: URL) throws -> String? {
        guard let tool = find(compiler) else { return nil }
        let out = directory.appendingPathComponent(output).path
        let result = try run(tool, flags + [fixtures.appendingPathComponent(source).path, "-o", out])
        guard result.status == 0 else {
            Issue.record("\(compiler) \(flags) \(source) failed: \(result.stderr)")
            return nil
        }
        return out
    }

    /// Start and size of `.text` (from readelf), for choosing addresses.
    static func textSection(of binary: String) throws -> (start: UInt64, size: UInt64)? {
        guard let readelf = find("readelf", "llvm-readelf") else { return nil }
        let out = try run(readelf, ["-SW", binary]).stdout
        for line in out.split(separator: "\n") where line.contains("] .text ") {
            let fields = line.split(separator: "]")[1].split(separator: " ")
            guard fields.count > 4, let start = UInt64(fields[2], radix: 16), let size = UInt64(fields[4], radix: 16) else { continue }
            return (start, size)
        }
        return nil
    }
}
