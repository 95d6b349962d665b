import Glibc
import Testing
import System

@Suite struct MappedFileTests {
    @Test func mapsARegularFile() throws {
        let dir = makeScratchDirectory("map")
        defer { removeTree(dir) }
        try FileIO.writeAtomically(Array("mapped bytes".utf8), to: dir + "/f")
        let file = try MappedFile(path: dir + "/f")
        #expect(Array(file.bytes) == Array("mapped bytes".utf8))
        #expect(file.path == dir + "/f")
    }

    @Test func mapsAnEmptyFile() throws {
        let dir = makeScratchDirectory("empty")
        defer { removeTree(dir) }
        try FileIO.writeAtomically([], to: dir + "/f")
        #expect(try MappedFile(path: dir + "/f").bytes.count == 0)
    }

    @Test func refusesDirectoriesAndDevices() {
        #expect(throws: FileIOError(path: "/tmp", errno: EISDIR, reason: "is a directory")) { try MappedFile(path: "/tmp") }
        let device = #expect(throws: FileIOError.self) { try MappedFile(path: "/dev/zero") }
        #expect(device?.reason == "is a character device")
    }

    /// After `releaseResidentPages`, the mapping holds no resident pages (its `Rss` in
    /// /proc/self/smaps is 0) and reading it again gives the same bytes.
    @Test func releasedPagesAreNoLongerResidentAndReadAgain() throws {
        let dir = makeScratchDirectory("release")
        defer { removeTree(dir) }
        let contents = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try FileIO.writeAtomically(contents, to: dir + "/f")
        let file = try MappedFile(path: dir + "/f")
        func residentKilobytes() throws -> Int {
            let start = String(UInt(bitPattern: file.bytes.baseAddress), radix: 16)
            let smaps = String(decoding: try FileIO.readStream("/proc/self/smaps"), as: UTF8.self).split(separator: "\n")
            let index = try #require(smaps.firstIndex { $0.hasPrefix(start + "-") })
            let rss = try #require(smaps[index...].first { $0.hasPrefix("Rss:") })
            return try #require(Int(rss.split(separator: " ", omittingEmptySubsequences: true)[1]))
        }
        var sum = 0
        for byte in file.bytes { sum &+= Int(byte) }
        #expect(try residentKilobytes() >= 4 << 10)
        file.releaseResidentPages()
        #expect(try residentKilobytes() == 0)
        #expect(Array(file.bytes) == contents)
    }

    @Test func copiesMemory() {
        let file = MappedFile(copying: [1, 2, 3])
        #expect(Array(file.bytes) == [1, 2, 3])
        #expect(file.path == "<memory>")
    }
}
