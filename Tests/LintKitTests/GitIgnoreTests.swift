import Foundation
import LintKit
import Testing

/// `.gitignore` files read from the walk's directory up to the repository root, each pattern
/// relative to its own directory.
@Suite struct GitIgnoreTests {
    @Test func readsUpToTheRepositoryRoot() throws {
        let fm = FileManager.default
        let outside = fm.temporaryDirectory.appendingPathComponent("devkit-gitignore-\(UUID().uuidString)")
        let root = outside.appendingPathComponent("repo"), sub = root.appendingPathComponent("App")
        try fm.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try fm.createDirectory(at: sub, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: outside) }
        try Data("# outside the repository\n*.plist\n".utf8).write(to: outside.appendingPathComponent(".gitignore"))
        try Data("Pods\n".utf8).write(to: root.appendingPathComponent(".gitignore"))
        try Data("*.bak\n".utf8).write(to: sub.appendingPathComponent(".gitignore"))

        let ignore = GitIgnore.load(from: sub.path)
        #expect(ignore.ignores(root.path + "/Pods/X/Info.plist"))
        #expect(ignore.ignores(sub.path + "/Info.plist.bak"))
        #expect(!ignore.ignores(root.path + "/Info.plist.bak"))
        #expect(!ignore.ignores(sub.path + "/Info.plist"), "a .gitignore above the repository root is not read")
    }

    @Test func nothingToReadIsEmpty() {
        #expect(GitIgnore.load(from: "/nonexistent-devkit-dir").isEmpty)
    }
}
