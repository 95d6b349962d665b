import DevKitTestSupport
import Foundation
import Testing

/// `devkit lint` on the signed apps of Scripts/fixtures/make-signed-app, through the built
/// binary: the intact app and its .ipa pass, every damaged copy gives its findings (golden
/// file, paths relative to the fixture directory) and exit status 1; in an .ipa, a large
/// resource hashed from the archive (never written out) modified, added or missing.
@Suite struct LintSealCommandTests {
    static let damaged = ["cms", "entitlements", "fat-page", "fat2-page", "framework", "framework-resigned", "huge-slots", "info", "page", "resource-added",
                          "resource-modified", "resource-removed", "truncated-cd"]

    @Test func intactAppAndIPAPass() throws {
        let r = try CLI.run(["lint", "--no-config", try SignedApp.path("Signed.app"), try SignedApp.path("Signed.ipa")])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func damagedCopies() throws {
        let root = try SignedApp.path("Signed.app").dropLast("Signed.app".count)
        let paths = try Self.damaged.map { try SignedApp.path("damaged/\($0).app") } + [try SignedApp.path("AdHoc.app")]
            + ["movie-modified", "movie-added", "movie-removed"].map { try SignedApp.path("damaged/\($0).ipa") }
        let r = try CLI.run(["lint", "--no-config"] + paths)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        // Offsets depend on the linker's layout, which this snapshot pins for one lld (Debian's lld-19).
        try CLI.assertSnapshot(r.stdout.replacingOccurrences(of: String(root), with: ""), named: "devkit-lint-seal.txt")
    }
}
