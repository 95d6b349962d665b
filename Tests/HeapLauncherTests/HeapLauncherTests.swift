import HeapLauncher
import HeapTestSupport
import System
import Foundation
import Testing

/// Launching through `HeapLauncher` (and System's `ChildProcess` under it): exit statuses,
/// signals, the default output name, refusals before anything runs.
@Suite struct HeapLauncherTests {
    static var agent: String {
        URL(fileURLWithPath: HeapFixture.devkit).deletingLastPathComponent().appendingPathComponent("libdevkit-heap.so").path
    }

    static func configuration() throws -> HeapLauncher.Configuration {
        let output = try HeapFixture.temporaryDirectory().appendingPathComponent("run.dkheap").path
        return HeapLauncher.Configuration(agentPath: agent, outputPath: output)
    }

    @Test func exitStatusAndSignalAreReported() throws {
        let launcher = HeapLauncher(configuration: try Self.configuration())
        #expect(try launcher.run(["/bin/sh", "-c", "exit 3"]) == .exited(3))
        let killed = try launcher.run(["/bin/sh", "-c", "kill -TERM $$"])
        #expect(killed == .signaled(15))
        #expect(killed.shellStatus == 143)
        #expect(FileManager.default.fileExists(atPath: launcher.configuration.outputPath))
    }

    @Test func theDefaultOutputIsNamedAfterTheProgram() {
        #expect(HeapLauncher.Configuration(program: "/usr/bin/env", outputPath: nil).outputPath == "env.dkheap")
        #expect(HeapLauncher.Configuration(program: "tool", outputPath: "x.dkheap").outputPath == "x.dkheap")
    }

    @Test func theRecorderIsLookedForBesideTheBinaryThenInAnInstalledTree() {
        #expect(HeapLauncher.agentCandidates(besideExecutable: "/src/devkit/.build/release/devkit")
                == ["/src/devkit/.build/release/libdevkit-heap.so", "/src/devkit/.build/lib/devkit/libdevkit-heap.so"])
        #expect(HeapLauncher.agentCandidates(besideExecutable: "/usr/bin/devkit")
                == ["/usr/bin/libdevkit-heap.so", "/usr/lib/devkit/libdevkit-heap.so"])
    }

    @Test func refusalsNameTheFile() throws {
        var configuration = try Self.configuration()
        let program = ["/bin/sh", "-c", "exit 0"]
        configuration.agentPath = "/nonexistent/libdevkit-heap.so"
        #expect(throws: HeapLauncher.LaunchError.self) { try HeapLauncher(configuration: configuration).run(program) }
        configuration = try Self.configuration()
        configuration.outputPath = "/dev/null"
        let error = #expect(throws: HeapLauncher.LaunchError.self) { try HeapLauncher(configuration: configuration).run(program) }
        #expect(error?.description == "/dev/null: error: exists and is not a regular file; choose another -o")
        configuration = try Self.configuration()
        let missing = #expect(throws: HeapLauncher.LaunchError.self) { try HeapLauncher(configuration: configuration).run(["/nonexistent/program"]) }
        #expect(missing?.description == "/nonexistent/program: error: cannot run: No such file or directory")
    }
}
