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

    @Test func copiesMemory() {
        let file = MappedFile(copying: [1, 2, 3])
        #expect(Array(file.bytes) == [1, 2, 3])
        #expect(file.path == "<memory>")
    }
}
