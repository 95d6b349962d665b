import Foundation

/// The toolchain's `swift-demangle` as the oracle for devkit's Swift names: every Swift
/// symbol of a binary (from `nm`), and what `swift-demangle` (full) and
/// `swift-demangle --simplified` (short, Xcode's form) print for each.
public enum SwiftDemangleOracle {
    /// `swift-demangle`, nil when no toolchain is installed.
    public static var tool: String? { TestProcess.find("swift-demangle") }

    /// Every Swift name (`$s…`, `_$s…`) `nm` lists for `binary`, defined or not, once each.
    public static func swiftSymbols(of binary: String) throws -> [String] {
        guard let nm = TestProcess.find("nm", "llvm-nm") else { return [] }
        let output = try TestProcess.run(nm, [binary])
        guard output.status == 0 else { throw OracleFailure(message: "nm \(binary): \(output.stderr)") }
        var names = Set<String>()
        for line in output.stdout.split(separator: "\n") {
            guard let name = line.split(separator: " ").last else { continue }
            if name.hasPrefix("$s") || name.hasPrefix("_$s") { names.insert(String(name)) }
        }
        return names.sorted()
    }

    /// `swift-demangle`'s form of each of `names`, in order: `--simplified` or its default.
    public static func demangle(_ names: [String], simplified: Bool) throws -> [String] {
        guard let tool else { throw OracleFailure(message: "swift-demangle is not installed") }
        var result: [String] = []
        var start = 0
        // A few hundred names per run: one run each would take minutes, all at once could
        // pass the argument list's limit.
        while start < names.count {
            let chunk = Array(names[start..<min(start + 400, names.count)])
            let output = try TestProcess.run(tool, (simplified ? ["--simplified"] : []) + ["--compact"] + chunk)
            guard output.status == 0 else { throw OracleFailure(message: "swift-demangle: \(output.stderr)") }
            var lines = output.stdout.components(separatedBy: "\n")
            if lines.last == "" { lines.removeLast() }
            guard lines.count == chunk.count else {
                throw OracleFailure(message: "swift-demangle printed \(lines.count) lines for \(chunk.count) names")
            }
            result += lines
            start += chunk.count
        }
        return result
    }

    public struct OracleFailure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
