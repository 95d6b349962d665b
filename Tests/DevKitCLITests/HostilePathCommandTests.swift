import Foundation
import Testing

/// Issue 15 §1 end to end: files an input names (an app's Info.plist, profile and
/// executable) or a user passes, planted as FIFOs or device symlinks at test time. Each
/// command answers at once with exit 2 and what the file is; `timeout` turns a regression
/// (a blocked open, an endless read) into exit 124 instead of a hung suite.
@Suite struct HostilePathCommandTests {
    func run(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(arguments, launcher: ["/usr/bin/timeout", "-s", "KILL", "20"])
    }

    /// An `.app` made of the sample Info.plist, with `name` replaced by `plant`.
    func app(replacing name: String, with plant: (String) -> Int32) throws -> (directory: URL, app: String) {
        let directory = try CLI.temporaryDirectory()
        let app = directory.appendingPathComponent("Hostile.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.samples.appendingPathComponent("Info.plist"), to: app.appendingPathComponent("Info.plist"))
        let path = app.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        #expect(plant(path) == 0)
        return (directory, app.path)
    }

    static let plants: [(String, String, @Sendable (String) -> Int32)] = [
        ("FIFO", "is a FIFO", { mkfifo($0, 0o600) }),
        ("/dev/zero", "is a character device", { symlink("/dev/zero", $0) }),
        ("/dev/urandom", "is a character device", { symlink("/dev/urandom", $0) }),
    ]

    @Test(arguments: ["Info.plist", "embedded.mobileprovision"], 0..<3)
    func provisionInspectOfAnAppWithAHostileFile(_ name: String, _ plant: Int) throws {
        let (what, reason, make) = Self.plants[plant]
        let (directory, app) = try app(replacing: name, with: make)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try run(["provision", "inspect", app])
        #expect(result.status == 2, "\(what): \(result.stderr)")
        #expect(result.stderr.hasPrefix("\(app)/\(name): error: cannot read "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(": \(reason)\n"), "\(result.stderr)")
    }

    /// The executable the Info.plist names (CFBundleExecutable) as a FIFO.
    @Test func provisionInspectOfAnAppWhoseExecutableIsAFIFO() throws {
        let executable = "Hostile"
        let (directory, app) = try app(replacing: executable, with: { mkfifo($0, 0o600) })
        defer { try? FileManager.default.removeItem(at: directory) }
        let info = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
            + "\t<key>CFBundleExecutable</key>\n\t<string>\(executable)</string>\n</dict>\n</plist>\n"
        try Data(info.utf8).write(to: URL(fileURLWithPath: app + "/Info.plist"))
        let result = try run(["provision", "inspect", app])
        #expect(result.status == 2)
        #expect(result.stderr == "\(app)/\(executable): error: cannot read the app's executable: is a FIFO\n")
    }

    /// Paths typed by the user get the same answer from every command that reads them.
    @Test(arguments: 0..<3)
    func commandsNamingAHostileFile(_ plant: Int) throws {
        let (what, reason, make) = Self.plants[plant]
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Info.plist").path
        #expect(make(path) == 0)
        for arguments in [
            ["plist", "print", path], ["plist", "lint", path], ["lint", path],
            ["plist", "set", path, "CFBundleVersion", "2"], ["plist", "fmt", path],
            ["provision", "inspect", path], ["symbolicate", "--binary", path, "0x1000"], ["symbolicate", path],
        ] {
            let result = try run(arguments)
            // `plist lint` reports an unreadable file as its `plist.io` finding (exit 1).
            let findingOnly = arguments.prefix(2) == ["plist", "lint"]
            #expect(result.status == (findingOnly ? 1 : 2), "\(what) \(arguments): \(result.status) \(result.stderr)")
            #expect((findingOnly ? result.stdout : result.stderr).contains(reason), "\(what) \(arguments): \(result.stderr)")
        }
    }
}
