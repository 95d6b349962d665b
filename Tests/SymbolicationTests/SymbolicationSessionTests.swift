import Foundation
import Symbolication
import Testing

@Suite struct SymbolicationSessionTests {
    /// Images are opened once per (path, id, arch); failures are remembered; runtime
    /// addresses have the load address removed.
    @Test func reusesImagesAndRemembersFailures() throws {
        let directory = try Toolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let binary = try Toolchain.compile("inline.c", compiler: "clang", flags: ["-O2", "-g", "-Wl,--build-id=sha1"], output: "app", in: directory) else { return }
        let session = SymbolicationSession()
        let first = try session.image(at: binary)
        #expect(try session.image(at: binary) === first)
        let id = try #require(first.identifier)
        #expect(try session.image(at: binary, identifier: id.uppercased()) !== first)  // another key, same answers
        let text = try #require(try Toolchain.textSection(of: binary))
        let address = text.start + text.size / 2
        #expect(try session.frames(atRuntimeAddress: 0x5555_0000_0000 + address, imagePath: binary, loadAddress: 0x5555_0000_0000)
                == first.frames(at: address))
        #expect(throws: SymbolicationError.self) { try session.image(at: binary, identifier: String(repeating: "1", count: 40)) }
        #expect(throws: SymbolicationError.self) { try session.image(at: directory.appendingPathComponent("missing").path) }
    }
}
