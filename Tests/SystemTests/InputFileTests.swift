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

    /// Each kind has its cap: a sparse file one byte over the configuration cap is refused
    /// as `.devkit.yml` before a byte is read, and read as a general file.
    @Test func capsArePerKind() throws {
        let directory = makeScratchDirectory("caps")
        defer { removeTree(directory) }
        let path = directory + "/.devkit.yml"
        let cap = InputFile.Kind.configuration.sizeCap
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(fd, off_t(cap) + 1) == 0)
        close(fd)
        #expect(throws: FileIOError(path: path, reason: "is \(cap + 1) bytes, more than the \(cap)-byte limit for this kind of input")) {
            try FileIO.read(path, kind: .configuration)
        }
        #expect(try FileIO.read(path, kind: .general).count == cap + 1)
        // A core-sized file skipped by its prefix is not held to the read cap.
        #expect(try FileIO.read(path, kind: .configuration, unlessPrefix: 4) { _ in true } == nil)
        #expect(InputFile.Kind.profile.sizeCap < InputFile.Kind.propertyList.sizeCap)
    }
}
