import Foundation
import Glibc
import Testing

/// Issue 15, sections 2, 3 and 6: in-place writers never lose a concurrent update, respect
/// read-only files, setuid/setgid bits and other users' files, never write outside a linted
/// tree, and leave no temp file behind when killed mid-write.
@Suite struct InPlaceWriteSafetyTests {
    static let empty = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        </dict>
        </plist>

        """

    /// A dictionary of `count` string entries: about 60 bytes each.
    static func large(_ count: Int) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
        for i in 0..<count { text += "\t<key>Key\(i)</key>\n\t<string>value number \(i) of the big file</string>\n" }
        return text + "</dict>\n</plist>\n"
    }

    static func file(_ text: String = empty, in directory: URL? = nil) throws -> URL {
        let url = try (directory ?? CLI.temporaryDirectory()).appendingPathComponent("Info.plist")
        try Data(text.utf8).write(to: url)
        return url
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    /// Section 2: 20 pairs of `plist set` racing on one file with different keys. Each pair
    /// either keeps both keys or one of them exits 2 saying the file changed; none loses a
    /// key silently (before: 20 of 20 lost one on a 1.9 MB file, 5 of 20 on 829 bytes).
    @Test(arguments: [0, 20_000]) func racingSetsNeverLoseAKey(entries: Int) throws {
        let url = try Self.file(entries == 0 ? Self.empty : Self.large(entries))
        for pair in 0..<20 {
            if pair > 0 { try Data((entries == 0 ? Self.empty : Self.large(entries)).utf8).write(to: url) }
            let results = UnsafeMutableBufferPointer<CLI.Result?>.allocate(capacity: 2)
            results.initialize(repeating: nil)
            defer { results.deallocate() }
            nonisolated(unsafe) let shared = results
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                shared[i] = try? CLI.run(["plist", "set", url.path, "Race\(pair)_\(i)", "\(i)"])
            }
            let text = try String(contentsOf: url, encoding: .utf8)
            for i in 0..<2 {
                let result = try #require(results[i])
                if result.status == 0 {
                    #expect(text.contains("<key>Race\(pair)_\(i)</key>"), "pair \(pair): key \(i) lost silently")
                } else {
                    #expect(result.status == 2)
                    #expect(result.stderr == "\(url.path): error: changed while devkit was editing it; nothing written\n")
                }
            }
        }
    }

    /// Section 2: convert --in-place, fmt and buddy check, under the file's lock, that it
    /// still holds what they read; lint --fix and set lock it from read to write. All share
    /// one writer, so a racing pair of different writers loses nothing either.
    @Test func racingDifferentWritersNeverLoseAnUpdate() throws {
        let url = try Self.file(Self.large(5_000))
        for round in 0..<10 {
            try Data(Self.large(5_000).utf8).write(to: url)
            let commands = [["plist", "set", url.path, "Set\(round)", "x"],
                            ["plist", "buddy", "-c", "Add :Buddy\(round) string y", url.path]]
            let results = UnsafeMutableBufferPointer<CLI.Result?>.allocate(capacity: 2)
            results.initialize(repeating: nil)
            defer { results.deallocate() }
            nonisolated(unsafe) let shared = results
            DispatchQueue.concurrentPerform(iterations: 2) { i in shared[i] = try? CLI.run(commands[i]) }
            let text = try String(contentsOf: url, encoding: .utf8)
            for (i, key) in ["Set\(round)", "Buddy\(round)"].enumerated() {
                let result = try #require(results[i])
                if result.status == 0 { #expect(text.contains("<key>\(key)</key>"), "\(key) lost silently") }
                else { #expect(result.stderr.contains("changed while devkit was editing it; nothing written"), "\(result.stderr)") }
            }
        }
    }

    /// Section 3: a 0444 file is refused, as plutil does (root included); --force writes it
    /// and keeps its mode.
    @Test func readOnlyFileIsRefusedUnlessForced() throws {
        let url = try Self.file()
        chmod(url.path, 0o444)
        let refused = try CLI.run(["plist", "set", url.path, "A", "1"])
        #expect(refused.status == 2)
        #expect(refused.stderr == "\(url.path): error: is read-only (mode 0444); nothing written (--force replaces it anyway)\n")
        #expect(try String(contentsOf: url, encoding: .utf8) == Self.empty)
        for arguments in [["plist", "convert", url.path, "--to", "binary", "--in-place"], ["plist", "fmt", url.path, "--indent", "2"],
                          ["plist", "buddy", "-c", "Add :B string b", url.path]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains("is read-only (mode 0444)"), "\(arguments): \(result.stderr)")
        }
        let forced = try CLI.run(["plist", "set", url.path, "A", "1", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOf: url, encoding: .utf8).contains("<key>A</key>"))
        #expect(Self.mode(url.path) == 0o444)
    }

    /// Section 3: setuid and setgid bits survive a replacement (chown before chmod).
    @Test(arguments: [0o4755, 0o2751, 0o6700] as [mode_t]) func setuidAndSetgidAreKept(mode: mode_t) throws {
        let url = try Self.file()
        chmod(url.path, mode)
        let result = try CLI.run(["plist", "set", url.path, "A", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.mode(url.path) == mode, "mode \(String(Self.mode(url.path), radix: 8))")
    }

    /// Section 3: another user's file in a directory anyone may write (here root's file,
    /// edited as nobody): replacing it would make it nobody's, so it is refused; --force
    /// replaces it and the new file is the editor's.
    @Test(.enabled(if: getuid() == 0)) func otherUsersFileIsRefusedUnlessForced() throws {
        let directory = try CLI.temporaryDirectory()
        chmod(directory.path, 0o777)
        let url = try Self.file(in: directory)
        chmod(url.path, 0o666)
        let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let refused = try CLI.run(["plist", "set", url.path, "A", "1"], launcher: nobody)
        #expect(refused.status == 2)
        #expect(refused.stderr == "\(url.path): error: is owned by uid 0 gid 0; replacing it would make it yours (uid 65534 gid 65534); nothing written (--force replaces it anyway)\n")
        #expect(try String(contentsOf: url, encoding: .utf8) == Self.empty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Info.plist"])
        let forced = try CLI.run(["plist", "set", url.path, "A", "1", "--force"], launcher: nobody)
        #expect(forced.status == 0, "\(forced.stderr)")
        var info = stat()
        #expect(stat(url.path, &info) == 0 && info.st_uid == 65534)
    }

    /// Section 3: `lint --fix` reports a finding in a file that resolves, through a symlink,
    /// outside the linted tree, and does not write it.
    @Test func lintFixDoesNotWriteThroughASymlinkOutOfTheTree() throws {
        let dir = try CLI.temporaryDirectory()
        let outside = dir.appendingPathComponent("outside"), project = dir.appendingPathComponent("proj")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let entitlements = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>get-task-allow</key>\n\t<true/>\n</dict>\n</plist>\n"
        try Data(entitlements.utf8).write(to: outside.appendingPathComponent("App.entitlements"))
        symlink("../outside/App.entitlements", project.appendingPathComponent("App.entitlements").path)
        let real = outside.resolvingSymlinksInPath().appendingPathComponent("App.entitlements").path
        for target in ["proj", "proj/App.entitlements"] {
            let result = try CLI.run(["lint", target, "--fix", "--no-config", "--configuration", "release"], cwd: dir)
            #expect(result.status == 2)
            #expect(result.stdout.contains("proj/App.entitlements:4:2: error: get-task-allow is true"), "\(result.stdout)")
            #expect(result.stderr == "proj/App.entitlements: error: fix not applied: it resolves through a symlink to \(real), outside the linted tree\n")
            #expect(try String(contentsOf: outside.appendingPathComponent("App.entitlements"), encoding: .utf8) == entitlements)
        }
    }

    /// Section 6: SIGTERM, SIGINT or SIGKILL while a large in-place write is under way (seen
    /// in /proc/PID/fd: a descriptor on a new file in the directory) leaves no temp file (the
    /// O_TMPFILE has no name until just before the rename, with those signals held back), and
    /// the file is the old one or the new one, whole. Before: 27 of 30 SIGKILLs left one.
    @Test(arguments: [SIGTERM, SIGINT, SIGKILL]) func killedWriterLeavesNoTempFile(signal: Int32) throws {
        let original = Self.large(100_000)  // ≈ 7 MB
        let url = try Self.file(original)
        let directory = url.deletingLastPathComponent().resolvingSymlinksInPath().path
        var caughtWriting = 0
        for attempt in 0..<6 {
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["plist", "convert", url.path, "--to", "binary", "--in-place"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            if Self.waitForNewFile(in: directory, pid: process.processIdentifier) { caughtWriting += 1 }
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["Info.plist"], "attempt \(attempt)")
            let bytes = try Data(contentsOf: url)
            #expect(bytes == Data(original.utf8) || bytes.starts(with: Data("bplist00".utf8)), "attempt \(attempt): torn file")
            try Data(original.utf8).write(to: url)
        }
        #expect(caughtWriting > 0, "no kill landed during a write")
    }

    /// Polls /proc/PID/fd until `pid` holds a descriptor on a file in `directory` other than
    /// Info.plist (the file being written); false when the process ended or 20 s passed.
    static func waitForNewFile(in directory: String, pid: Int32) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        var buffer = [CChar](repeating: 0, count: 4096)
        while Date() < deadline {
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return false }
            for fd in fds {
                let n = readlink("/proc/\(pid)/fd/\(fd)", &buffer, buffer.count - 1)
                guard n > 0 else { continue }
                let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if target.hasPrefix(directory + "/"), !target.hasPrefix(directory + "/Info.plist") { return true }
            }
        }
        return false
    }
}
