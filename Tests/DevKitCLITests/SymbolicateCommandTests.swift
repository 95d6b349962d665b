import Foundation
import Testing

/// `devkit symbolicate` end to end on a binary compiled here from
/// Tests/SymbolicationTests/Fixtures/inline.c (clang from /opt/swift, source paths mapped to
/// /src so the output does not depend on where the repository lives).
@Suite struct SymbolicateCommandTests {
    static let source = CLI.repoRoot.appendingPathComponent("Tests/SymbolicationTests/Fixtures/inline.c")

    /// The binary and the address of its `compute` function (which has inlined calls).
    func build(_ directory: URL, extraFlags: [String] = []) throws -> (binary: String, compute: UInt64)? {
        let clang = "/opt/swift/usr/bin/clang"
        guard FileManager.default.isExecutableFile(atPath: clang) else { print("skipped: clang not installed"); return nil }
        let binary = directory.appendingPathComponent("inline").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: clang)
        process.arguments = ["-O2", "-g", "-gdwarf-5", "-fdebug-prefix-map=\(Self.source.deletingLastPathComponent().path)=/src",
                             "-Wl,--build-id=sha1"] + extraFlags + [Self.source.path, "-o", binary]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { Issue.record("clang failed"); return nil }
        // The address of compute from devkit's own JSON output would be circular; use nm.
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: "/opt/swift/usr/bin/llvm-nm")
        nm.arguments = [binary]
        let pipe = Pipe()
        nm.standardOutput = pipe
        try nm.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nm.waitUntilExit()
        let line = try #require(text.split(separator: "\n").first { $0.hasSuffix(" T compute") })
        return (binary, try #require(UInt64(line.prefix(16), radix: 16)))
    }

    @Test func outputStyles() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let (binary, compute) = try build(directory) else { return }
        // An address a few instructions into compute: inside the inlined add_sq/sq calls.
        let inlined = try (compute..<(compute + 64)).first { address in
            let out = try CLI.run(["symbolicate", "--no-cache", "--binary", binary, "0x" + String(address, radix: 16)])
            return out.stdout.components(separatedBy: "\n").count > 5
        }
        let address = "0x" + String(try #require(inlined), radix: 16)
        var transcript = ""
        for style in ["llvm", "gnu", "atos", "json"] {
            let out = try CLI.run(["symbolicate", "--no-cache", "--binary", binary, "--output-style", style, address])
            #expect(out.status == 0)
            transcript += "== \(style)\n" + out.stdout.replacingOccurrences(of: address, with: "ADDRESS").replacingOccurrences(of: binary, with: "BINARY")
        }
        try CLI.assertSnapshot(transcript, named: "symbolicate-styles.txt")
    }

    /// Addresses on standard input are answered one by one; a bad line is reported with its
    /// line number and makes the exit status 2, the others are still answered.
    @Test func standardInputAndBadLines() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let (binary, compute) = try build(directory) else { return }
        let address = String(compute, radix: 16)
        let single = try CLI.run(["symbolicate", "--no-cache", "--binary", binary, "--output-style", "gnu", address])
        #expect(single.stdout.hasPrefix("compute\n/src/inline.c:"))
        let input = "0x\(address)\nnot-an-address\n  \(address)\n"
        let out = try CLI.run(["symbolicate", "--no-cache", "--binary", binary, "--output-style", "gnu"], stdin: Data(input.utf8))
        #expect(out.status == 2)
        #expect(out.stdout == single.stdout + single.stdout)
        #expect(out.stderr == "<stdin>:2: error: \"not-an-address\" is not a hex address\n")
    }

    /// --load-address: runtime addresses have the slide removed.
    @Test func loadAddress() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let (binary, compute) = try build(directory) else { return }
        let runtime = 0x7f00_0000_0000 + compute
        let slid = try CLI.run(["symbolicate", "--no-cache", "--binary", binary, "--load-address", "0x7f0000000000", String(runtime, radix: 16)])
        let plain = try CLI.run(["symbolicate", "--no-cache", "--binary", binary, String(compute, radix: 16)])
        #expect(slid.status == 0)
        #expect(slid.stdout == plain.stdout)
        #expect(plain.stdout.hasPrefix("compute\n/src/inline.c:"))
    }

    @Test func wrongBuildIDIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let (binary, compute) = try build(directory) else { return }
        let wrong = String(repeating: "0", count: 40)
        let refused = try CLI.run(["symbolicate", "--no-cache", "--binary", binary, "--uuid", wrong, String(compute, radix: 16)])
        #expect(refused.status == 2)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.hasPrefix("\(binary): error: build-id is "))
        let forced = try CLI.run(["symbolicate", "--no-cache", "--binary", binary, "--uuid", wrong, "--force", String(compute, radix: 16)])
        #expect(forced.status == 0)
        #expect(forced.stdout.hasPrefix("compute [unverified]\n"))
    }

    /// The index cache under $XDG_CACHE_HOME: written on the first run, used on the second,
    /// as --stats says; answers are the same.
    @Test func cacheThroughXDGCacheHome() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let (binary, compute) = try build(directory) else { return }
        let environment = ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]
        let arguments = ["symbolicate", "--binary", binary, "--stats", String(compute, radix: 16)]
        let first = try CLI.run(arguments, environment: environment)
        let second = try CLI.run(arguments, environment: environment)
        #expect(first.status == 0 && second.status == 0)
        #expect(first.stderr.contains("(cache miss;"))
        #expect(second.stderr.contains("(cache hit;"))
        #expect(first.stdout == second.stdout)
        let cached = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("cache/devkit/symbols").path)
        #expect(cached.count == 1 && cached[0].count == 40)
    }

    @Test func usageErrors() throws {
        let noBinary = try CLI.run(["symbolicate", "--no-cache", "0x1000"])
        #expect(noBinary.status == 2)
        #expect(noBinary.stderr.contains("--binary"))
        let missing = try CLI.run(["symbolicate", "--no-cache", "--binary", "/nonexistent/app", "0x1000"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "/nonexistent/app: error: No such file or directory\n")
    }
}
