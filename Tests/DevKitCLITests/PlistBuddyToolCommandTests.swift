import DevKitTestSupport
import Foundation
import Testing

/// devkit as `PlistBuddy`, through a link of that name, as a build script calls it.
@Suite struct PlistBuddyToolCommandTests {
    @Test func aLinkNamedPlistBuddyBumpsABuildNumber() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = directory.appendingPathComponent("Info.plist")
        try FileManager.default.copyItem(at: CLI.samples.appendingPathComponent("Info.plist"), to: plist)
        let link = directory.appendingPathComponent("PlistBuddy")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: CLI.binary)
        let script = """
            set -e
            build=$("\(link.path)" -c "Print :CFBundleVersion" "\(plist.path)")
            "\(link.path)" -c "Set :CFBundleVersion $((build + 1))" "\(plist.path)"
            "\(link.path)" -c "Print :CFBundleVersion" "\(plist.path)"
            """
        let ran = try TestProcess.run("/bin/sh", ["-c", script])
        #expect(ran.status == 0, "\(ran.stderr)")
        // Samples/Info.plist's CFBundleVersion is 142.
        #expect(ran.stdout == "143\n")
    }
}
