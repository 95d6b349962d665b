@testable import CoreDump
import Foundation
import Testing

/// devkit's own libdwfl thread callbacks (`CoreThreadState`, `CoreMemory`) against libdwfl's
/// `dwfl_core_file_attach` on the same core: the same threads in the same order, the same
/// frames (PC and kind) and the same pid, on the intact core and on cores cut inside their
/// memory; and the memory reader's rules on hand-made segments.
@Suite struct CoreThreadAttachTests {
    struct Walk: Equatable {
        var pid: Int64
        var threads: [[UInt64]]
        var tids: [Int64]
        var activations: [[Bool]]
        var stopped: [Bool]
    }

    func walk(_ core: String, program: String, ownThreads: Bool) throws -> (walk: Walk, ownAttached: Bool) {
        let session = try DwflCoreSession.open(corePath: core, executable: program, searchPaths: [], ownThreads: ownThreads)
        _ = session.modules(limits: limits)
        let (threads, _, _) = try session.threads(limits: limits)
        return (Walk(pid: session.pid, threads: threads.map { $0.frames.map(\.pc) }, tids: threads.map(\.tid),
                     activations: threads.map { $0.frames.map(\.isActivation) }, stopped: threads.map { $0.stopReason != nil }),
                session.threadsAttachedByDevkit)
    }

    let limits = CoreWalkLimits(maxThreads: 4096, maxFramesPerThread: 1024, maxModules: 4096, maxNotes: 1000, maxNoteDescriptor: 4096)

    @Test func sameThreadsAndFramesAsLibdwflsAttach() throws {
        guard case .success(let fixture) = CoreFixture.shared else { print("skipped: \(CoreFixture.shared)"); return }
        let own = try walk(fixture.core, program: fixture.program, ownThreads: true)
        let theirs = try walk(fixture.core, program: fixture.program, ownThreads: false)
        #if arch(x86_64)
        #expect(own.ownAttached, "the fixture core is a plain x86-64 core: devkit's callbacks should attach it")
        #endif
        #expect(!theirs.ownAttached)
        #expect(own.walk == theirs.walk)
        #expect(own.walk.threads.count >= 4)
        #expect(own.walk.threads.allSatisfy { $0.count >= 3 })
    }

    /// Cores cut inside their memory: whatever libdwfl's reader unwinds, devkit's unwinds too,
    /// frame for frame (a read past the end of the file fails in both).
    @Test func truncatedMemoryUnwindsAlike() throws {
        guard case .success(let fixture) = CoreFixture.shared else { print("skipped: \(CoreFixture.shared)"); return }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.core))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-core-cut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for fraction in [2, 3, 4] {
            let path = directory.appendingPathComponent("core-\(fraction)").path
            try bytes.prefix(bytes.count * (fraction - 1) / fraction).write(to: URL(fileURLWithPath: path))
            let own = try? walk(path, program: fixture.program, ownThreads: true)
            let theirs = try? walk(path, program: fixture.program, ownThreads: false)
            #expect((own == nil) == (theirs == nil), "cut at \(fraction - 1)/\(fraction)")
            if let own, let theirs { #expect(own.walk == theirs.walk, "cut at \(fraction - 1)/\(fraction)") }
        }
    }

    /// Sorted segments are searched, overlapping ones scanned in header order (the first that
    /// holds all 8 bytes wins), ranges are rounded out to the smallest alignment above 1, and
    /// bytes past the end of the file or outside every segment are refused with the reason.
    @Test func memoryReaderFollowsLibdwflsRules() {
        let file = (0..<256).map { UInt8($0) }
        file.withUnsafeBytes { bytes in
            func word(_ offset: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
            let apart = CoreMemory(file: bytes, loads: [(0x1000, 0x40, 0, 1), (0x2000, 0x40, 0x80, 1)])
            #expect(apart.word(at: 0x1000) == word(0))
            #expect(apart.word(at: 0x1038) == word(0x38))
            #expect(apart.word(at: 0x1039) == nil)
            #expect(apart.lastFailure == .outOfRange(0x1039))
            #expect(apart.word(at: 0x2010) == word(0x90))
            #expect(apart.word(at: 0xfff) == nil)
            #expect(apart.word(at: .max - 3) == nil)
            // Overlapping: the first in header order that holds the word.
            let overlapping = CoreMemory(file: bytes, loads: [(0x1000, 0x20, 0x40, 1), (0x1000, 0x40, 0, 1)])
            #expect(overlapping.word(at: 0x1008) == word(0x48))
            #expect(overlapping.word(at: 0x1020) == word(0x20))
            // Alignment 0x100: [0x1010, 0x1020) reads as [0x1000, 0x1100) from offset 0x10.
            let aligned = CoreMemory(file: bytes, loads: [(0x1010, 0x10, 0x10, 0x100)])
            #expect(aligned.word(at: 0x1000) == word(0x10))
            #expect(aligned.word(at: 0x10e8) == word(0xf8))
            // Past the end of the file: a truncated core.
            #expect(aligned.word(at: 0x10f0) == nil)
            #expect(aligned.lastFailure == .pastEndOfFile(0x10f0))
            aligned.clearFailure()
            #expect(aligned.lastFailure == nil)
        }
    }
}
