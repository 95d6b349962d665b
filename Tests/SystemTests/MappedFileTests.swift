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

    /// A file cut short while mapped: inside the guard the pages it lost read as zeros
    /// instead of ending the process with SIGBUS, and the error names the first lost byte
    /// (the page boundary at or after the new end).
    @Test func truncationWhileMappedBecomesAnError() throws {
        let dir = makeScratchDirectory("shrunk")
        defer { removeTree(dir) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let contents = [UInt8](repeating: 1, count: 16 * page)
        try FileIO.writeAtomically(contents, to: dir + "/f")
        let file = try MappedFile(path: dir + "/f")
        #expect(truncate(dir + "/f", off_t(2 * page + 100)) == 0)
        var sum = 0
        let error = #expect(throws: FileIOError.self) {
            try file.withTruncationGuard { bytes in sum = bytes.reduce(0) { $0 + Int($1) } }
        }
        #expect(error?.reason == "shrank while being read: byte \(3 * page) was gone (it is now \(2 * page + 100) bytes)")
        #expect(error?.path == dir + "/f")
        // The bytes the file still has were read; the rest were zeros (the kernel's past the end
        // of the last page, the guard's after it).
        #expect(sum == 2 * page + 100)
    }

    /// Unchanged, the guarded read is the plain one; a guard that caught a truncation leaves
    /// nothing behind for the next one.
    @Test func guardedReadOfAnUnchangedFileReturnsTheResult() throws {
        let dir = makeScratchDirectory("guarded")
        defer { removeTree(dir) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        try FileIO.writeAtomically([UInt8](repeating: 2, count: 4 * page), to: dir + "/cut")
        try FileIO.writeAtomically([UInt8](repeating: 3, count: 4 * page + 7), to: dir + "/whole")
        let cut = try MappedFile(path: dir + "/cut")
        #expect(truncate(dir + "/cut", 0) == 0)
        #expect(throws: FileIOError.self) { try cut.withTruncationGuard { $0.reduce(0) { $0 + Int($1) } } }
        let whole = try MappedFile(path: dir + "/whole")
        #expect(try whole.withTruncationGuard { $0.reduce(0) { $0 + Int($1) } } == 3 * (4 * page + 7))
        #expect(try MappedFile(copying: [5, 6]).withTruncationGuard { Array($0) } == [5, 6])
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
