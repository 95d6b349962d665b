import Glibc
import Testing
@testable import System

/// `LockedFile`: the one in-place writer (issue 15, sections 2 and 6).
@Suite struct LockedFileTests {
    static func write(_ text: String, to path: String) throws {
        try FileIO.writeAtomically(Array(text.utf8), to: path)
    }

    /// A writer that takes no lock (an editor, `cp`) changed the file between read and
    /// replace: nothing is written and the error says so.
    @Test(arguments: ["rewrite in place", "replace by rename"]) func changeByAnotherWriterIsRefused(how: String) throws {
        let dir = makeScratchDirectory("locked")
        defer { removeTree(dir) }
        let path = dir + "/file"
        try Self.write("one", to: path)
        let file = try LockedFile(path)
        #expect(file.bytes == Array("one".utf8))
        if how == "rewrite in place" {
            let fd = open(path, O_WRONLY | O_TRUNC)
            _ = Glibc.write(fd, "other", 5)
            close(fd)
        } else {
            try Self.write("other", to: path)
        }
        let error = #expect(throws: FileIOError.self) { try file.replace(with: Array("mine".utf8), backup: false, force: false) }
        #expect(error?.description == "\(path): changed while devkit was editing it; nothing written")
        #expect(try FileIO.read(path) == Array("other".utf8))
        #expect(try FileIO.directoryEntries(dir) == ["file"])
    }

    /// A second editor waits for the first one's lock, then reads the file the first wrote.
    @Test func secondEditorSeesTheFirstEditorsFile() throws {
        let dir = makeScratchDirectory("locked")
        defer { removeTree(dir) }
        let path = dir + "/file"
        try Self.write("one", to: path)
        let first = try LockedFile(path)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)  // held until replaced
        try first.replace(with: Array("two".utf8), backup: false, force: false)
        let second = try LockedFile(path)
        #expect(second.bytes == Array("two".utf8))
    }

    /// A FIFO at the path is refused without blocking.
    @Test func fifoIsRefused() throws {
        let dir = makeScratchDirectory("locked")
        defer { removeTree(dir) }
        mkfifo(dir + "/fifo", 0o600)
        let error = #expect(throws: FileIOError.self) { try LockedFile(dir + "/fifo") }
        #expect(error?.reason == "is a FIFO")
    }

    /// A plist to edit in place larger than the property-list cap is refused unread.
    @Test func fileOverItsKindsCapIsRefused() throws {
        let dir = makeScratchDirectory("locked")
        defer { removeTree(dir) }
        let path = dir + "/huge.plist"
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(fd, off_t(InputFile.Kind.propertyList.sizeCap) + 1) == 0)  // sparse
        close(fd)
        let error = #expect(throws: FileIOError.self) { try LockedFile(path) }
        #expect(error?.path == path)
        #expect(error?.reason == "is 536870913 bytes, more than the 536870912-byte limit for this kind of input")
    }
}

/// The named-temp fallback's cleanup (file systems without O_TMPFILE).
@Suite struct StaleTemporaryTests {
    /// Our pattern, owned by us and last written before this process started, is removed;
    /// a fresh one (a writer at work), another file's and other names are kept.
    @Test func staleTemporariesOfOurPatternAreRemoved() throws {
        let dir = makeScratchDirectory("stale")
        defer { removeTree(dir) }
        let started = FileIO.processStartTime()
        #expect(started > 1_600_000_000)
        for name in [".Info.plist.devkit-aB3xYz", ".Info.plist.devkit-fresh1", ".Other.plist.devkit-aB3xYz", ".Info.plist.devkit-toolong", "Info.plist"] {
            try FileIO.writeAtomically(Array("x".utf8), to: dir + "/" + name)
        }
        // Last written an hour before this process started: left by a killed devkit.
        for name in [".Info.plist.devkit-aB3xYz", ".Other.plist.devkit-aB3xYz", ".Info.plist.devkit-toolong"] {
            var times = [timespec(tv_sec: started - 3600, tv_nsec: 0), timespec(tv_sec: started - 3600, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, dir + "/" + name, &times, 0) == 0)
        }
        FileIO.removeStaleTemporaries(prefix: dir + "/.Info.plist.devkit-")
        #expect(try FileIO.directoryEntries(dir) == [".Info.plist.devkit-fresh1", ".Info.plist.devkit-toolong", ".Other.plist.devkit-aB3xYz", "Info.plist"])
    }
}
