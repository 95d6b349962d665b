import Foundation
import Symbolication
import Testing

@Suite struct ImageIdentityTests {
    /// A build-id the binary does not have is refused, naming both; `--force` symbolicates
    /// but marks the result unverified.
    @Test func mismatchedBuildIDIsRefused() throws {
        let directory = try Toolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let binary = try Toolchain.compile("inline.c", compiler: "clang", flags: ["-O1", "-g", "-Wl,--build-id=sha1"], output: "app", in: directory) else { return }
        let actual = try #require(try ImageSymbolizer(path: binary).identifier)
        #expect(actual.count == 40)

        var options = SymbolicationOptions()
        options.expectedIdentifier = actual.uppercased()
        #expect(try ImageSymbolizer(path: binary, options: options).isVerified)

        options.expectedIdentifier = String(repeating: "ab", count: 20)
        #expect {
            try ImageSymbolizer(path: binary, options: options)
        } throws: { error in
            guard let error = error as? SymbolicationError else { return false }
            return error.kind == .identifierMismatch && error.message.contains(actual)
        }

        options.allowIdentifierMismatch = true
        #expect(try ImageSymbolizer(path: binary, options: options).isVerified == false)
    }

    @Test func notAnELFFile() throws {
        #expect {
            try ImageSymbolizer(path: Toolchain.fixtures.appendingPathComponent("inline.c").path)
        } throws: { error in
            (error as? SymbolicationError)?.kind == .unsupportedFormat
        }
    }
}
