import DevKitTestSupport
import Foundation
import Testing

/// devkit as `atos`: through `devkit atos` and through a link named atos (argv[0]), as a
/// script written for macOS calls it.
@Suite struct AtosCommandTests {
    static let dsym = CLI.repoRoot.appendingPathComponent("Tests/ObjectFileTests/Fixtures/macho/inline-arm64.dSYM").path

    @Test func aLinkNamedAtosAnswersLikeAtos() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("atos")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: CLI.binary)
        let viaSubcommand = try CLI.run(["atos", "-o", Self.dsym, "-arch", "arm64", "-l", "0x104000000", "0x104000428", "0x1040004ac"])
        #expect(viaSubcommand.status == 0, "\(viaSubcommand.stderr)")
        let viaLink = try TestProcess.run(link.path, ["-o", Self.dsym, "-arch", "arm64", "-l", "0x104000000", "0x104000428", "0x1040004ac"])
        #expect(viaLink.status == 0)
        #expect(viaLink.stdout == viaSubcommand.stdout)
        // _compute and _start of the fixture (llvm-nm: 0x100000428, 0x1000004ac), slid to 0x104000000.
        let lines = viaSubcommand.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("compute (in inline-arm64) (inline.c:") == true, "\(viaSubcommand.stdout)")
        #expect(lines.last?.hasPrefix("start (in inline-arm64) (inline.c:") == true, "\(viaSubcommand.stdout)")
    }

    @Test func addressesFromStandardInputAndUsageErrors() throws {
        let piped = try CLI.run(["atos", "-o", Self.dsym, "-arch", "arm64"], stdin: Data("0x1 0x2\n".utf8))
        #expect(piped.stdout == "0x1\n0x2\n")
        let bad = try CLI.run(["atos", "-o", Self.dsym, "-q"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("atos: unknown option -q\nusage: atos "))
        let help = try CLI.run(["atos", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Apple's atos on Linux"))
    }
}
