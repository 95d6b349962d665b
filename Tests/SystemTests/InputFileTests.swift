import Glibc
import Testing
@testable import System

/// Issue 15 §1: paths devkit did not create are opened without blocking, and anything but a
/// regular file is refused by name, made at test time (mkfifo, device symlinks).
@Suite struct InputFileTests {
    @Test func fifoIsRefusedWithoutBlocking() throws {
        let directory = makeScratchDirectory("fifo")
        defer { removeTree(directory) }
        let fifo = directory + "/Info.plist"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileIOError(path: fifo, reason: "is a FIFO")) { try FileIO.read(fifo) }
        #expect(throws: FileIOError(path: fifo, reason: "is a FIFO")) { try FileIO.readPrefix(fifo, count: 4) }
        #expect(throws: FileIOError(path: fifo, reason: "is a FIFO")) { try MappedFile(path: fifo) }
    }

    @Test(arguments: ["/dev/zero", "/dev/urandom"])
    func deviceSymlinkIsRefused(device: String) throws {
        let directory = makeScratchDirectory("device")
        defer { removeTree(directory) }
        let link = directory + "/embedded.mobileprovision"
        #expect(symlink(device, link) == 0)
        #expect(throws: FileIOError(path: link, reason: "is a character device")) { try FileIO.read(link) }
        #expect(throws: FileIOError(path: link, reason: "is a character device")) { try MappedFile(path: link) }
    }
}
