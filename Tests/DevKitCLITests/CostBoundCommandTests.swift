import Foundation
import Testing

/// Issue 15 §5, on the built binary: memory measured as the child's peak RSS (`/usr/bin/time`
/// reports getrusage's ru_maxrss), not a timing.
@Suite struct CostBoundCommandTests {
    /// The child's peak resident set in KiB from `/usr/bin/time -f`'s last stderr line.
    static func run(_ arguments: [String]) throws -> (CLI.Result, Int)? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { print("skipped: no /usr/bin/time"); return nil }
        let result = try CLI.run(arguments, launcher: ["/usr/bin/time", "-f", "maxrss=%M"])
        let line = result.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss=") }
        let kib = try #require(line.flatMap { Int($0.dropFirst(7)) }, "\(result.stderr)")
        return (result, kib)
    }

    /// 500k frames (22 MB): all of them as values took 169 MB; the reader keeps 65,536.
    @Test func aSwiftBacktraceOfHalfAMillionFramesStaysSmall() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = "*** Signal 11: Backtracing from 0x1000... done ***\n"
        text += "{\"kind\":\"crashReport\",\"description\":\"x\",\"threads\":[{\"name\":\"t\",\"crashed\":true,\"frames\":["
        text += (0..<500_000).map { "{\"kind\":\"returnAddress\",\"address\":\"0x\(String(0x1000 + $0, radix: 16))\"}" }.joined(separator: ",")
        text += "]}],\"images\":[]}\n"
        let file = directory.appendingPathComponent("big.json")
        try Data(text.utf8).write(to: file)
        guard let (result, kib) = try Self.run(["symbolicate", file.path]) else { return }
        #expect(result.stderr.contains("only the first 65536 are kept"), "\(result.stderr)")
        #expect(kib < 110 * 1024, "peak RSS \(kib) KiB for a \(text.utf8.count / 1024) KiB report")
    }
}
