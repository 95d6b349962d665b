import CrashSymbolication
import DevKitTestSupport
import Foundation
import Symbolication
import Testing

/// How `devkit symbolicate` decides what its arguments are.
@Suite struct SymbolicateRequestTests {
    @Test func withoutABinaryEveryInputIsACrashLog() {
        let request = SymbolicateRequest(inputs: ["a.crash", "0x1000"])
        #expect(request.route == .crashLogs(["a.crash", "0x1000"]))
    }

    @Test func withABinaryAddressesAreLookedUp() {
        var request = SymbolicateRequest(inputs: ["0x1000", "2000", "no-such-file"])
        request.binary = "app"
        #expect(request.route == .addresses(binary: "app"))
        request.inputs = []
        #expect(request.route == .addresses(binary: "app"))
    }

    /// A file among the arguments lists addresses in the binary; then only such files are read.
    @Test func withABinaryAFileIsAnAddressList() throws {
        let directory = try TestProcess.temporaryDirectory("devkit-route")
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("addresses.txt").path
        try Data("0x1000\n".utf8).write(to: URL(fileURLWithPath: list))
        var request = SymbolicateRequest(inputs: ["0x1000", list, directory.path])
        request.binary = "app"
        #expect(request.route == .crashLogs([list]))
    }

    /// `--group` takes files and directories of logs, whatever else is set; names are short.
    @Test func groupingTakesEveryInput() {
        var request = SymbolicateRequest(inputs: ["logs", "a.crash"])
        request.group = true
        #expect(request.route == .groups(["logs", "a.crash"]))
        #expect(request.defaultNames == .short)
    }

    /// Without `--names`: crash logs get Xcode's short names, `--binary` (addresses and
    /// address lists alike) llvm-symbolizer's full ones.
    @Test func defaultNamesFollowTheBinary() {
        var request = SymbolicateRequest(inputs: ["a.crash"])
        #expect(request.defaultNames == .short)
        request.binary = "app"
        #expect(request.defaultNames == .full)
        #expect(request.names == nil)
    }
}
