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

        /// An image opened once to write the cache, its answers, and the cache file's path and
        /// bytes as written.
        func pristineCache() throws -> (reference: ImageSymbolizer, expected: [[SymbolicatedFrame]], path: String, pristine: Data) {
            let reference = try ImageSymbolizer(path: binary, options: options)
            let path = "\(cache)/\(try #require(reference.identifier))"
            return (reference, try answers(reference), path, try Data(contentsOf: URL(fileURLWithPath: path)))
        }

        /// The symbol-table answers (`symbol + offset`), which read the symbol blocks.
        func symbols(_ image: ImageSymbolizer) -> [String?] {
            addresses.map { image.symbol(at: $0).map { "\($0.name)+\($0.start)" } }
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

    /// The cache's arrays as its header places them: (offset, count) of lines, ranges, depth
    /// starts, subroutines, symbols, string spans, string bytes, block checksums, block keys,
    /// range carries.
    func sections(_ bytes: Data) -> [(offset: Int, count: Int)] {
        func word(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[bytes.startIndex + at + $1]) << (8 * $1) } }
        return (0..<10).map { (word(120 + 16 * $0), word(128 + 16 * $0)) }
    }

    /// Damage to the header, the small arrays or the padding, or truncation: found when the
    /// cache is opened, rebuilt, same answers, and the rewritten cache is good again.
    @Test func damagedHeaderIsRebuiltAtOpen() throws {
        guard let fixture = try makeFixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let (_, expected, path, pristine) = try fixture.pristineCache()
        let arrays = sections(pristine)
        var damaged: [Data] = [pristine.prefix(pristine.count / 2), pristine.prefix(100), Data(), pristine.dropLast(8), pristine + Data(count: 8)]
        // The header (magic, version, identity, array table, checksum), one byte of each small
        // array, and the padding after the string bytes when there is any.
        var offsets = [0, 9, 20, 90, 130, 240, 281] + [2, 7, 8, 9].map { arrays[$0].offset + 1 }
        if (arrays[6].offset + arrays[6].count) % 8 != 0 { offsets.append(arrays[6].offset + arrays[6].count) }
        for offset in offsets {
            var copy = pristine
            copy[offset] ^= 0x40
            damaged.append(copy)
        }
        for (i, bytes) in damaged.enumerated() {
            try bytes.write(to: URL(fileURLWithPath: path))
            let image = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
            #expect(!image.statistics.cacheHit, "damage \(i) was not detected at open")
            #expect(image.statistics.cacheNote.hasPrefix("cache rebuilt"), "\(image.statistics.cacheNote)")
            #expect(try fixture.answers(image) == expected)
            #expect(try ImageSymbolizer(path: fixture.binary, options: fixture.options).statistics.cacheHit)
        }
    }

    /// Damage in a block of the large arrays is not looked for at open (a core dump reads a
    /// few blocks of an index megabytes long); it is found when a lookup first reads the
    /// block, before anything is answered from it: the index is rebuilt, the answers are the
    /// same, and the rewritten cache is good again. Blocks of line rows, ranges and symbols
    /// hold the records of every code address, so answering all of them reads every one; a
    /// damaged string or subroutine block only some names use may go unread, and then the
    /// answers are the same without a rebuild.
    @Test func damagedBlockIsRebuiltWhenRead() throws {
        guard let fixture = try makeFixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let (reference, expected, path, pristine) = try fixture.pristineCache()
        let expectedSymbols = fixture.symbols(reference)
        let arrays = sections(pristine)
        let strides = [24, 32, 4, 16, 32, 8, 1]
        for section in [0, 1, 3, 4, 5, 6] where arrays[section].count > 0 {
            let bytes = arrays[section].count * strides[section]
            for offset in [arrays[section].offset, arrays[section].offset + bytes / 2, arrays[section].offset + bytes - 1] {
                var copy = pristine
                copy[offset] ^= 0x40
                try copy.write(to: URL(fileURLWithPath: path))
                let image = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
                #expect(image.statistics.cacheHit, "array \(section), offset \(offset): only the header is checked at open")
                #expect(try fixture.answers(image) == expected, "array \(section), offset \(offset)")
                #expect(fixture.symbols(image) == expectedSymbols, "array \(section), offset \(offset)")
                let note = image.statistics.cacheNote
                if [0, 1, 4].contains(section) {
                    #expect(note.hasPrefix("cache rebuilt (block "), "array \(section), offset \(offset): \(note)")
                }
                #expect(note == "cache hit" || note.hasPrefix("cache rebuilt (block "), "\(note)")
                if note != "cache hit" {
                    #expect(try ImageSymbolizer(path: fixture.binary, options: fixture.options).statistics.cacheHit)
                }
            }
        }
    }

    /// A damaged block that the first lookups do not read does not stop them being answered
    /// from the cache; the lookup that reads it (here the last address) finds it before
    /// answering and is answered from the rebuilt index, as are the ones after.
    @Test func damageUsedLateIsFoundThenAndUnusedDamageIsNeverRead() throws {
        guard let fixture = try makeFixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let (_, expected, path, pristine) = try fixture.pristineCache()
        let lines = sections(pristine)[0]
        // Blocks of 128 rows: damage the last row's line number (the last block), which the
        // last addresses read and the first ones do not.
        try #require(lines.count > 2 * 128, "the fixture has \(lines.count) line rows: too few for two blocks")
        var copy = pristine
        copy[lines.offset + (lines.count - 2) * 24 + 12] ^= 0x01
        try copy.write(to: URL(fileURLWithPath: path))
        let image = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
        let early = Array(fixture.addresses.prefix(fixture.addresses.count / 4))
        #expect(try early.map { try image.frames(at: $0) } == Array(expected.prefix(early.count)))
        #expect(image.statistics.cacheNote == "cache hit", "a block no lookup read was checked")
        #expect(try fixture.answers(image) == expected)
        #expect(image.statistics.cacheNote.hasPrefix("cache rebuilt (block "), "\(image.statistics.cacheNote)")
        #expect(!image.statistics.cacheHit)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == pristine, "the rebuilt index was written over the damaged one")
    }

    /// A cache written by the previous format version (issue 18 bumped it three times: Swift
    /// closures' inlined calls were missing from version 5 indexes, version 7 ranges carry
    /// their function's outermost name, and version 8 files are checked block by block) is
    /// rebuilt, not reinterpreted.
    @Test func previousFormatVersionIsRebuilt() throws {
        guard let fixture = try makeFixture() else { return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let reference = try ImageSymbolizer(path: fixture.binary, options: fixture.options)
        let path = "\(fixture.cache)/\(try #require(reference.identifier))"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let version = bytes[8..<12].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        #expect(version == 8)
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
