import DevKitTestSupport
import Glibc
import Testing
@testable import System

/// A fresh directory under /tmp for one test, removed by the caller.
func makeScratchDirectory(_ name: String) -> String {
    var template = Array("/tmp/devkit-system-\(name)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}

func removeTree(_ path: String) {
    for entry in (try? FileIO.directoryEntries(path)) ?? [] {
        let child = path + "/" + entry
        if DirectoryWalk.type(of: child) == .directory { removeTree(child) } else { unlink(child) }
    }
    rmdir(path)
}

@Suite struct FileIOTests {
    @Test func missingFileKeepsErrnoAndPath() throws {
        let error = #expect(throws: FileIOError.self) { try FileIO.read("/nonexistent/devkit-test") }
        #expect(error?.errno == ENOENT)
        #expect(error?.isFileNotFound == true)
        #expect(error?.reason == "No such file or directory")
        #expect(error?.path == "/nonexistent/devkit-test")
        #expect(error?.diagnostic.description == "/nonexistent/devkit-test: error: No such file or directory")
        #expect(error?.diagnostic.kind == .fileNotFound)
    }

    @Test func directoryIsRefusedWithEISDIR() {
        let error = #expect(throws: FileIOError.self) { try FileIO.read("/tmp") }
        #expect(error?.errno == EISDIR)
        #expect(error?.reason == "is a directory")
        #expect(error?.diagnostic.kind == .io)
    }

    @Test func atomicWriteReplacesAndKeepsPermissions() throws {
        let dir = makeScratchDirectory("atomic")
        defer { removeTree(dir) }
        let path = dir + "/file"
        try FileIO.writeAtomically(Array("one".utf8), to: path)
        chmod(path, 0o640)
        try FileIO.writeAtomically(Array("two, longer".utf8), to: path)
        #expect(try FileIO.read(path) == Array("two, longer".utf8))
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o640)
        // Nothing but the file is left behind: the temporary file was renamed over it.
        #expect(try FileIO.directoryEntries(dir) == ["file"])
    }

    /// A file written in pieces past the writeback size comes back whole: writeback is
    /// started piece by piece while writing, and the target appears only on commit.
    @Test func largeFileWrittenInPiecesIsWhole() throws {
        let dir = makeScratchDirectory("pieces")
        defer { removeTree(dir) }
        let path = dir + "/big"
        let piece = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        let writer = try AtomicFileWriter(replacing: path)
        for round in 0..<11 { try writer.write(piece.map { $0 &+ UInt8(round) }) }
        #expect(access(path, F_OK) != 0)
        try writer.commit()
        let expected = (0..<11).flatMap { round in piece.map { $0 &+ UInt8(round) } }
        #expect(try FileIO.read(path) == expected)
    }

    /// The path a character device takes too (`-o /dev/null`, which as root was replaced by a
    /// regular file); tested on a FIFO, whose replacement would break nothing else.
    @Test func atomicWriteToAFIFOWritesThroughIt() throws {
        let dir = makeScratchDirectory("fifo")
        defer { removeTree(dir) }
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader first, so the writer's open does not wait.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        try FileIO.writeAtomically(Array("through the pipe".utf8), to: fifo)
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(reader, &buffer, buffer.count)
        #expect(n == 16)
        #expect(Array(buffer.prefix(max(n, 0))) == Array("through the pipe".utf8))
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileIO.directoryEntries(dir) == ["pipe"])
    }

    @Test func largeFilesReadExactly() throws {
        // Past the size from which the read buffer asks for huge pages, and not a multiple of them.
        let dir = makeScratchDirectory("large")
        defer { removeTree(dir) }
        var rng = SplitMix64(seed: 2030)
        let bytes = (0..<(9 << 20) + 12_345).map { _ in UInt8.random(in: 0...255, using: &rng) }
        try FileIO.writeAtomically(bytes, to: dir + "/big")
        #expect(try FileIO.read(dir + "/big") == bytes)
        #expect(try FileIO.read(dir + "/big", kind: .general, unlessPrefix: 16, matches: { _ in false }) == bytes)
    }

    @Test func atomicWriteIntoMissingDirectoryFailsWithErrno() {
        let error = #expect(throws: FileIOError.self) { try FileIO.writeAtomically([1], to: "/nonexistent/dir/file") }
        #expect(error?.errno == ENOENT)
        #expect(error?.reason.hasPrefix("cannot create a temporary file beside it: ") == true)
    }

    @Test func prefixReadStopsAtTheFileEnd() throws {
        let dir = makeScratchDirectory("prefix")
        defer { removeTree(dir) }
        try FileIO.writeAtomically(Array("abc".utf8), to: dir + "/f")
        #expect(try FileIO.readPrefix(dir + "/f", count: 2) == Array("ab".utf8))
        #expect(try FileIO.readPrefix(dir + "/f", count: 10) == Array("abc".utf8))
        #expect(try FileIO.read(dir + "/f", unlessPrefix: 2, matches: { $0 == Array("ab".utf8) }) == nil)
        #expect(try FileIO.read(dir + "/f", unlessPrefix: 2, matches: { _ in false }) == Array("abc".utf8))
    }

    @Test func createDirectoriesMakesEveryLevel() throws {
        let dir = makeScratchDirectory("mkdir")
        defer { removeTree(dir) }
        try FileIO.createDirectories(dir + "/a/b/c")
        #expect(DirectoryWalk.type(of: dir + "/a/b/c") == .directory)
        try FileIO.createDirectories(dir + "/a/b/c")
    }
}
