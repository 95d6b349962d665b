import DevKitTestSupport
import Foundation
import Testing

/// devkit as `plutil`, through a link of that name, as a release script calls it.
@Suite struct PlutilCommandTests {
    @Test func aLinkNamedPlutilRunsAReleaseScript() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = directory.appendingPathComponent("Info.plist")
        try FileManager.default.copyItem(at: CLI.samples.appendingPathComponent("Info.plist"), to: plist)
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("plutil"), withDestinationURL: CLI.binary)
        let script = """
            set -e
            PATH="\(directory.path):$PATH"
            plutil -lint Info.plist
            version=$(plutil -extract CFBundleVersion raw Info.plist)
            plutil -replace CFBundleVersion -string "$((version + 1))" Info.plist
            plutil -extract CFBundleVersion raw -expect string Info.plist
            plutil -extract CFBundleVersion raw -expect integer Info.plist || echo "exit $?"
            """
        let ran = try TestProcess.run("/bin/sh", ["-c", script], cwd: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.stdout == "Info.plist: OK\n143\nexit 1\n")
        #expect(ran.stderr == "Info.plist: Value at [CFBundleVersion] expected to be integer but is string\n")
    }
}
