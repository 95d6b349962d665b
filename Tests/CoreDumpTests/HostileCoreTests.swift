import DevKitTestSupport
import CoreDump
import Foundation
import Testing

/// Files that are not intact cores: each must give a `CoreDumpError` naming the file (or,
/// for a core cut only in its memory tail, a report), never a trap or a hang.
@Suite final class HostileCoreTests {
    /// One directory per test (Swift Testing makes a suite instance per test), removed after it.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-hostile-core-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: directory) }

    func write(_ bytes: [UInt8], name: String) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func expectError(_ path: String, _ kind: CoreDumpError.Kind? = nil, _ comment: Comment? = nil) {
        do {
            _ = try CoreDumpReader.read(corePath: path, executable: nil, searchPaths: [])
            Issue.record("read succeeded: \(comment.map { "\($0)" } ?? path)")
        } catch {
            #expect(error.path == path)
            #expect(!error.message.isEmpty)
            if let kind { #expect(error.kind == kind, "\(error)") }
        }
    }

    @Test func emptyFile() throws {
        expectError(try write([], name: "empty"), .notELF)
    }

    @Test func randomBytes() throws {
        var generator = SplitMix64(seed: 2027)
        expectError(try write((0..<65536).map { _ in UInt8.random(in: 0...255, using: &generator) }, name: "random"), .notELF)
    }

    @Test func missingFile() {
        expectError("/nonexistent/devkit/core", .unreadable)
    }

    @Test func missingExecutable() throws {
        guard case .success(let fixture) = CoreFixture.shared else { print("skipped: tools missing"); return }
        #expect(throws: CoreDumpError.self) {
            try CoreDumpReader.read(corePath: fixture.core, executable: "/nonexistent/devkit/prog", searchPaths: [])
        }
    }

    @Test func anExecutableIsNotACore() throws {
        guard case .success(let fixture) = CoreFixture.shared else { print("skipped: \(CoreFixture.shared)"); return }
        expectError(fixture.program, .notCore)
    }

    /// An ELF header claiming ET_CORE with nothing behind it.
    @Test func coreHeaderOnly() throws {
        guard case .success(let fixture) = CoreFixture.shared else { print("skipped: tools missing"); return }
        let core = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.core)))
        expectError(try write(Array(core.prefix(64)), name: "header-only"))
    }

    /// Prefixes cut inside the header, the program headers and the notes must fail; longer
    /// ones (notes intact, memory cut) may read, with fewer frames, but must not crash.
    @Test func truncatedCores() throws {
        guard case .success(let fixture) = CoreFixture.shared else { print("skipped: tools missing"); return }
        let core = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.core)))
        for length in [1, 4, 16, 63, 64, 100, 200, 1000, 4096] where length < core.count {
            expectError(try write(Array(core.prefix(length)), name: "core-\(length)"), nil, "prefix \(length)")
        }
        for length in [core.count / 4, core.count / 2, core.count - 4096, core.count - 1] {
            let path = try write(Array(core.prefix(length)), name: "core-\(length)")
            do {
                let document = try CoreDumpReader.read(corePath: path, executable: fixture.program, searchPaths: [])
                #expect(document.report.threads.count <= 4)
            } catch {
                #expect(error.path == path)
                // Where libdwfl gives up on a cut core, the position is where its bytes end.
                if error.kind == .damaged {
                    #expect(error.offset == length, "\(error)")
                    #expect(error.description.hasPrefix("\(path): offset 0x\(String(length, radix: 16)): error: "), "\(error)")
                }
            }
        }
    }

    /// Bytes flipped all over a real core: whatever happens, no trap and no hang.
    @Test func corruptedCore() throws {
        guard case .success(let fixture) = CoreFixture.shared else { print("skipped: tools missing"); return }
        var core = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.core)))
        var generator = SplitMix64(seed: 2028)
        for _ in 0..<(core.count / 512) {
            core[Int.random(in: 64..<core.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        }
        let path = try write(core, name: "corrupted")
        _ = try? CoreDumpReader.read(corePath: path, executable: fixture.program, searchPaths: [])
    }
}
