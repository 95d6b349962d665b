import Diagnostics
import ElfUtils
import Testing

/// Which servers a run asks and how its failures read. The environment's DEBUGINFOD_URLS is
/// not set here (it would reach every program the other tests start); the CLI tests set it
/// for devkit alone (DevKitCLITests' DebuginfodCommandTests, against a real server).
@Suite struct DebuginfodSettingsTests {
    @Test func offlineWinsOverEveryServer() {
        #expect(DebuginfodSettings.resolve(option: "http://127.0.0.1:8002", offline: true) == nil)
        #expect(DebuginfodSettings.resolve(option: nil, offline: true) == nil)
    }

    @Test func theOptionNamesTheServers() throws {
        let settings = try #require(DebuginfodSettings.resolve(option: "http://a.example http://b.example", offline: false))
        #expect(settings.servers == "http://a.example http://b.example")
        #expect(settings.transferTimeout == 10)
        #expect(settings.deadline == 30)
    }

    /// An option holding only blanks names no server: nothing is asked, as with none at all.
    @Test(arguments: ["", " ", "\t "])
    func aBlankOptionNamesNoServer(_ option: String) {
        #expect(DebuginfodSettings.resolve(option: option, offline: false) == nil)
    }

    @Test func aFailureNamesTheBuildIDTheServersAndTheReason() {
        let refused = DebuginfodError(buildID: "ab12", artifact: "debug info", servers: "http://127.0.0.1:1", code: 111, reason: "Connection refused")
        #expect(refused.description == "no debug info for build-id ab12 from debuginfod (http://127.0.0.1:1): Connection refused")
        #expect(!refused.isNotFound)
        #expect(refused.diagnostic.severity == .warning)
        let absent = DebuginfodError(buildID: "ab12", artifact: "executable", servers: "http://s", code: 2, reason: "not found on the server")
        #expect(absent.isNotFound)
    }

    /// An empty build-id is refused before libdebuginfod is opened or any server asked.
    @Test func anEmptyBuildIDIsRefusedWithoutAsking() {
        let client = DebuginfodClient(settings: DebuginfodSettings(servers: "http://127.0.0.1:1"))
        guard case .failure(let error) = client.fetch(.debugInfo, buildID: []) else {
            Issue.record("an empty build-id was fetched")
            return
        }
        #expect(error.reason == "no build-id")
    }
}
