import Glibc
import Testing
import System

@Suite struct DirectoryWalkTests {
    @Test func walksFilesAndSkipsWhatDescendRefuses() throws {
        let dir = makeScratchDirectory("walk")
        defer { removeTree(dir) }
        try FileIO.createDirectories(dir + "/keep/deeper")
        try FileIO.createDirectories(dir + "/skip")
        for file in ["/a.plist", "/keep/b.plist", "/keep/deeper/c.txt", "/skip/d.plist"] {
            try FileIO.writeAtomically([0x3c], to: dir + file)
        }
        let walk = DirectoryWalk.files(under: dir, descend: { !$0.hasSuffix("/skip") }, include: { $0.hasSuffix(".plist") })
        #expect(walk.files.sorted() == [dir + "/a.plist", dir + "/keep/b.plist"])
        #expect(walk.errors.isEmpty)
    }

    @Test func entryTypes() {
        #expect(DirectoryWalk.type(of: "/tmp") == .directory)
        #expect(DirectoryWalk.type(of: "/dev/null") == .other)
        #expect(DirectoryWalk.type(of: "/nonexistent/devkit") == .missing)
        #expect(DirectoryWalk.currentDirectory().hasPrefix("/"))
    }
}
