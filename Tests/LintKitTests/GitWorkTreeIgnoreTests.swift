import DevKitTestSupport
import Foundation
import LintKit
import PlistChecks
import Testing

/// Inside a git work tree, what a directory walk skips is git's answer (`git ls-files
/// --exclude-standard`): negations, nested `.gitignore` files, `.git/info/exclude`,
/// `core.excludesFile`, tracked files never ignored. A real repository made at test time.
@Suite struct GitWorkTreeIgnoreTests {
    static let plist = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n"

    /// Makes the repository; returns its path (inside `outside`, which also holds the global
    /// excludes file).
    func makeRepository(in outside: URL) throws -> String {
        guard let git = TestProcess.find("git") else { throw GitMissing() }
        let repo = outside.appendingPathComponent("repo").path
        func write(_ relative: String, _ text: String, base: String? = nil) throws {
            let url = URL(fileURLWithPath: (base ?? repo) + "/" + relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        func run(_ arguments: [String]) throws {
            let result = try TestProcess.run(git, ["-C", repo] + arguments)
            guard result.status == 0 else { throw GitFailed(message: result.stderr) }
        }
        try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
        try run(["init", "-q"])
        try write(".gitignore", "Generated/\n*.generated.plist\n!Special.generated.plist\n")
        try write("App/.gitignore", "Local.plist\n")
        try write(".git/info/exclude", "Excluded.plist\n")
        try write("global-ignore", "Personal.plist\n", base: outside.path)
        try run(["config", "core.excludesFile", outside.path + "/global-ignore"])
        for name in ["Info.plist", "Generated/Info.plist", "App/Foo.generated.plist", "App/Special.generated.plist",
                     "App/Local.plist", "App/Sub/Local.plist", "Local.plist", "Excluded.plist", "Personal.plist",
                     "Tracked.generated.plist"] {
            try write(name, Self.plist)
        }
        // Tracked despite matching a pattern: git never ignores a tracked file.
        try run(["add", "-f", "Tracked.generated.plist"])
        return repo
    }

    struct GitMissing: Error {}
    struct GitFailed: Error { var message: String }

    func walk(_ directory: String, cwd: String, asksGit: Bool = true) throws -> [String] {
        let engine = try LintEngine(registry: PlistRules.registry, currentDirectory: cwd)
        let run = LintRun(engine: engine, gitIgnore: GitIgnore.load(from: cwd), asksGit: asksGit)
        let prefix = cwd + "/"
        return run.files(for: [directory]).files.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }.sorted()
    }

    @Test func followsGitsRules() throws {
        let outside = try TestProcess.temporaryDirectory("devkit-gitworktree")
        defer { try? FileManager.default.removeItem(at: outside) }
        let repo = try makeRepository(in: outside)
        #expect(try walk(repo, cwd: repo) == [
            "App/Special.generated.plist",   // a negation brings it back
            "Info.plist",
            "Local.plist",                   // App/.gitignore applies only under App
            "Tracked.generated.plist",       // tracked
        ])
        // From a subdirectory: the same rules (git reads every level above too).
        #expect(try walk(repo + "/App", cwd: repo) == ["App/Special.generated.plist"])
    }

    @Test func gitIsNotMisledByAHooksEnvironment() throws {
        // A hook's GIT_DIR would make git take the walked directory as the work tree's top.
        let entries = ["PATH=/usr/bin", "GIT_DIR=/elsewhere/.git", "GIT_WORK_TREE=/elsewhere", "GIT_INDEX_FILE=.git/index.lock",
                       "GIT_COMMON_DIR=/x", "GIT_AUTHOR_NAME=a"]
        let kept = entries.filter { entry in GitWorkTreeFiles.keeps(entry) }
        #expect(kept == ["PATH=/usr/bin", "GIT_AUTHOR_NAME=a"])
        #expect(GitWorkTreeFiles.keeps("GIT_INDEX_FILE=/repo/.git/index.lock"))
    }

    @Test func handWrittenMatcherWhenNotAsked() throws {
        // The fallback reads only the root .gitignore, without negations: the negated file is
        // skipped and the nested, info/exclude and global patterns are not seen. This is
        // what outside a work tree (or without git) means.
        let outside = try TestProcess.temporaryDirectory("devkit-gitworktree")
        defer { try? FileManager.default.removeItem(at: outside) }
        let repo = try makeRepository(in: outside)
        #expect(try walk(repo, cwd: repo, asksGit: false) == [
            "App/Local.plist", "App/Sub/Local.plist", "Excluded.plist", "Info.plist", "Local.plist", "Personal.plist",
        ])
    }

    @Test func outsideAWorkTreeGitIsNotAsked() throws {
        let outside = try TestProcess.temporaryDirectory("devkit-gitworktree")
        defer { try? FileManager.default.removeItem(at: outside) }
        // Only meaningful when the temporary directory is not itself inside a repository.
        guard !FileManager.default.fileExists(atPath: "/tmp/.git"), !FileManager.default.fileExists(atPath: "/.git") else { return }
        #expect(GitWorkTreeFiles.list(in: outside.path) == nil)
        try Data("Skipped.plist\n".utf8).write(to: outside.appendingPathComponent(".gitignore"))
        for name in ["Skipped.plist", "Kept.plist"] { try Data(Self.plist.utf8).write(to: outside.appendingPathComponent(name)) }
        #expect(try walk(outside.path, cwd: outside.path) == ["Kept.plist"])
    }

    @Test func listingParsesSubmodulesAndNestedRepositories() {
        // `sub` (a submodule's gitlink) and `nested/` (an untracked repository) count with
        // everything inside them.
        let files = GitWorkTreeFiles(root: "/r", listing: Array("a/b/c.plist\0sub\0nested/\0".utf8))
        #expect(!files.ignores("/r/a"))
        #expect(!files.ignores("/r/a/b"))
        #expect(!files.ignores("/r/a/b/c.plist"))
        #expect(files.ignores("/r/a/b/d.plist"))
        #expect(files.ignores("/r/a/x"))
        #expect(!files.ignores("/r/sub/deep/Info.plist"))
        #expect(!files.ignores("/r/nested/Info.plist"))
        #expect(!files.ignores("/elsewhere/x.plist"))
    }
}
