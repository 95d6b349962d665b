import Foundation
import FrameModel
import Symbolication
import Testing

/// The on-disk index cache: used when intact and built from the same files, rebuilt (never
/// trusted) when damaged, truncated or stale, with identical answers either way.
@Suite struct SymbolCacheTests {
    struct Fixture {
        var directory: URL
        var binary: String
        var cache: String
        var addresses: [UInt64]

        var options: SymbolicationOptions {
            var options = SymbolicationOptions()
            options.cacheDirectory = cache
            return options
        }

        func answers(_ image: ImageSymbolizer) throws -> [[SymbolicatedFrame]] {
            try addresses.map { try image.frames(at: $0) }
        }
    }

    func makeFixture() throws -> Fixture? {
        let directory = try Toolchain.temporaryDirectory()
        guard let binary = try Toolchain.compile("templates.cpp", compiler: "clang++", flags: ["-O2", "-g", "-Wl,--build-id=sha1"], output: "app", in: directory),
              let text = try Toolchain.textSection(of: binary) else { return nil }
        let addresses = Array(stride(from: text.start, to: text.start + text.size, by: 3))
        return Fixture(directory: directory, binary: binary, cache: directory.appendingPathComponent("cache/devkit/symbols").path, addresses: addresses)
    }

    @Test func secondOpenUsesTheCache() throws {
        guard let fixture = try makeFixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let first = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
        #expect(!first.statistics.cacheHit)
        #expect(first.statistics.cacheNote == "cache miss")
        let id = try #require(first.identifier)
        #expect(FileManager.default.fileExists(atPath: "\(fixture.cache)/\(id)"))
        let second = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
        #expect(second.statistics.cacheHit)
        #expect(try fixture.answers(second) == fixture.answers(first))
        #expect(second.statistics.lineRows == first.statistics.lineRows)
    }

    /// Damage anywhere (header, arrays, strings) or truncation: rebuilt, same answers, and
    /// the rewritten cache is good again.
    @Test func damagedCacheIsRebuilt() throws {
        guard let fixture = try makeFixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let reference = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
        let expected = try fixture.answers(reference)
        let path = "\(fixture.cache)/\(try #require(reference.identifier))"
        let pristine = try Data(contentsOf: URL(fileURLWithPath: path))
        var damaged: [Data] = [pristine.prefix(pristine.count / 2), pristine.prefix(100), Data()]
        for offset in [0, 9, 20, 90, 130, 240, 256, 300, pristine.count / 3, pristine.count / 2, pristine.count - 1] {
            var copy = pristine
            copy[offset] ^= 0x40
            damaged.append(copy)
        }
        for (i, bytes) in damaged.enumerated() {
            try bytes.write(to: URL(fileURLWithPath: path))
            let image = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
            #expect(!image.statistics.cacheHit, "damage \(i) was not detected")
            #expect(image.statistics.cacheNote.hasPrefix("cache rebuilt"), "\(image.statistics.cacheNote)")
            #expect(try fixture.answers(image) == expected)
            #expect(try ImageSymbolizer(path: fixture.binary, options: fixture.options).statistics.cacheHit)
        }
    }

    /// A cache written by the previous format version (issue 18 bumped it twice: Swift
    /// closures' inlined calls were missing from version 5 indexes, and version 7 ranges carry
    /// their function's outermost name) is rebuilt, not reinterpreted.
    @Test func previousFormatVersionIsRebuilt() throws {
        guard let fixture = try makeFixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let reference = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
        let path = "\(fixture.cache)/\(try #require(reference.identifier))"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let version = bytes[8..<12].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        #expect(version == 7)
        bytes[8] = UInt8(version - 1)
        try bytes.write(to: URL(fileURLWithPath: path))
        let image = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
        #expect(!image.statistics.cacheHit)
        #expect(image.statistics.cacheNote == "cache rebuilt (format version differs)")
        #expect(try fixture.answers(image) == fixture.answers(reference))
        #expect(try ImageSymbolizer(path: fixture.binary, options: fixture.options).statistics.cacheHit)
    }

    /// A rebuilt binary with the same build-id (touched, so its modification time differs) does not use the old index.
    @Test func staleCacheIsRebuilt() throws {
        guard let fixture = try makeFixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        _ = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: fixture.binary)
        let image = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
        #expect(!image.statistics.cacheHit)
    }
}
