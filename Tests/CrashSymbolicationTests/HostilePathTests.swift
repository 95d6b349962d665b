import CrashReport
import CrashSymbolication
import DevKitTestSupport
import Foundation
import Symbolication
import Testing

/// A crash log is untrusted, and so are the paths it names: a FIFO or a terminal device
/// as an image path must be passed over (opening or reading either would block), a
/// directory or a missing file must be "missing", never an error or a hang.
@Suite struct HostilePathTests {
    @Test func imagePathsThatAreNoRegularFiles() throws {
        let directory = try TestProcess.temporaryDirectory("devkit-hostile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("image.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let paths = [fifo, "/dev/tty", "/dev/zero", directory.path, directory.appendingPathComponent("missing").path]
        var text = """
            Process:             evil [1]
            Code Type:           ARM-64 (Native)
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)

            Thread 0 Crashed:

            """
        for (index, _) in paths.enumerated() {
            let base = 0x1_0000_0000 + UInt64(index) * 0x10_0000
            text += "\(index)   image\(index)  \t0x\(String(base + 0x390, radix: 16)) 0x\(String(base, radix: 16)) + 912\n"
        }
        text += "\nBinary Images:\n"
        for (index, path) in paths.enumerated() {
            let base = 0x1_0000_0000 + UInt64(index) * 0x10_0000
            text += "0x\(String(base, radix: 16)) - 0x\(String(base + 0xfffff, radix: 16)) image\(index) arm64  <4c4c44dd55553144a1ef29ba5eaf98f\(index)> \(path)\n"
        }
        let report = try CrashReportParser.parse(Array(text.utf8)).report
        #expect(report.binaryImages.count == paths.count)
        var options = SymbolicationOptions()
        options.cacheDirectory = nil
        // Search paths that are a FIFO and a device are passed over too.
        let catalog = ImageCatalog(searchPaths: [fifo, "/dev/null"])
        #expect(catalog.problems == ["\(fifo): not a regular file or directory", "/dev/null: not a regular file or directory"])
        let crash = CrashSymbolicator(resolver: ImageResolver(catalog: catalog), options: options).symbolicate(report)
        #expect(crash.images.allSatisfy { $0.status == .missing })
        #expect(crash.threads[0].allSatisfy { $0.symbols == nil })
    }
}
