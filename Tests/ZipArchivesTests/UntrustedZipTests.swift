import DevKitTestSupport
import Diagnostics
import Foundation
import Testing
import ZipArchives

/// `UntrustedZip` on archives Python's zipfile writes at test time: what it refuses, what
/// unpacking writes and where.
@Suite struct UntrustedZipTests {
    /// An archive of `entries` (name → text; a trailing `/` makes a directory; `zeros:N` is N
    /// zero characters) in a new directory; nil (skipped) without python3.
    static func archive(_ entries: [(String, String)]) throws -> (path: String, directory: URL)? {
        guard let python = TestProcess.find("python3") else { print("skipped: no python3"); return nil }
        let directory = try TestProcess.temporaryDirectory("devkit-zip")
        let path = directory.appendingPathComponent("a.zip").path
        let script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)\n"
            + "for name, text in zip(sys.argv[2::2], sys.argv[3::2]):\n"
            + "    z.writestr(name, '0' * int(text[6:]) if text.startswith('zeros:') else text)\nz.close()\n"
        let made = try TestProcess.run(python, ["-c", script, path] + entries.flatMap { [$0.0, $0.1] })
        #expect(made.status == 0, "\(made.stderr)")
        return (path, directory)
    }

    @Test func unpacksTheWantedEntriesAsPlainFiles() throws {
        guard let (path, directory) = try Self.archive([("a/", ""), ("a/keep.plist", "<plist/>"), ("a/skip.png", "png"), ("b/c/d.txt", "deep")]) else { return }
        let zip = try UntrustedZip(path: path)
        #expect(zip.names == ["a/", "a/keep.plist", "a/skip.png", "b/c/d.txt"])
        let out = directory.appendingPathComponent("out").path
        let written = try zip.unpack(into: out, entryLimit: 1 << 20) { !$0.hasSuffix(".png") }
        #expect(written == UInt64("<plist/>".utf8.count + "deep".utf8.count))
        #expect(try String(contentsOfFile: out + "/a/keep.plist", encoding: .utf8) == "<plist/>")
        #expect(try String(contentsOfFile: out + "/b/c/d.txt", encoding: .utf8) == "deep")
        #expect(!FileManager.default.fileExists(atPath: out + "/a/skip.png"))
    }

    /// `instead` gets the bytes of every refused entry `handOver` accepts (inflated, under the
    /// same limits; the rest are not read) and nothing of it is written; the wanted ones are written as before. Larger than 16 MiB in
    /// all, so the archive's pages are given back on the way (and read again correctly).
    @Test func refusedEntriesAreHandedOverInsteadOfWritten() throws {
        guard let (path, directory) = try Self.archive([("a/keep.plist", "<plist/>"), ("a/big.bin", "zeros:9000000"),
                                                        ("a/big2.bin", "zeros:9000000"), ("a/small.png", "png")]) else { return }
        let zip = try UntrustedZip(path: path)
        let out = directory.appendingPathComponent("out").path
        var handed: [String: Int] = [:]
        let written = try zip.unpack(into: out, entryLimit: 16 << 20, where: { $0.hasSuffix(".plist") },
                                     handOver: { !$0.hasSuffix(".png") }, instead: { (name: String, bytes: [UInt8]) throws(Diagnostic) in
                                         #expect(bytes.allSatisfy { $0 == UInt8(ascii: "0") } || name.hasSuffix(".png"))
                                         handed[name] = bytes.count
                                     })
        #expect(handed == ["a/big.bin": 9_000_000, "a/big2.bin": 9_000_000])
        #expect(written == UInt64(18_000_008))
        #expect(try String(contentsOfFile: out + "/a/keep.plist", encoding: .utf8) == "<plist/>")
        #expect(!FileManager.default.fileExists(atPath: out + "/a/big.bin"))
        #expect(!FileManager.default.fileExists(atPath: out + "/a/small.png"))
    }

    @Test(arguments: ["../escape.txt", "a/../../escape.txt", "/etc/escape", "a\\b"])
    func unsafeNamesRefuseTheArchive(name: String) throws {
        guard let (path, directory) = try Self.archive([("ok.txt", "x"), (name, "x")]) else { return }
        let error = #expect(throws: Diagnostic.self) { try UntrustedZip(path: path) }
        #expect(error?.message == "entry \"\(name)\" has an unsafe path (absolute or with ../); refusing the archive")
        #expect(!FileManager.default.fileExists(atPath: directory.deletingLastPathComponent().appendingPathComponent("escape.txt").path))
    }

    /// The archive's numbers are not trusted: an entry that inflates past its limit or past
    /// the ratio is refused as it inflates; the total written is bounded.
    @Test func sizesAreBoundedWhateverTheArchiveDeclares() throws {
        guard let (path, directory) = try Self.archive([("big.bin", "zeros:\(2 << 20)"), ("small.txt", "x")]) else { return }
        var limits = UntrustedZip.Limits()
        limits.ratioFloor = 1 << 16
        let zip = try UntrustedZip(path: path, limits: limits)
        let big = try #require(zip.entries["big.bin"])
        let refused = #expect(throws: Diagnostic.self) { try zip.read(big, limit: 8 << 20) }
        #expect(refused?.message.contains("a zip bomb?") == true, "\(String(describing: refused))")
        var total = UntrustedZip.Limits()
        total.maximumUnpackedSize = 1 << 20
        let bounded = #expect(throws: Diagnostic.self) {
            try UntrustedZip(path: path, limits: total).unpack(into: directory.appendingPathComponent("out").path, entryLimit: 8 << 20) { _ in true }
        }
        #expect(bounded?.message.contains("unpacks to more than") == true)
        var few = UntrustedZip.Limits()
        few.maximumEntries = 1
        #expect(throws: Diagnostic.self) { try UntrustedZip(path: path, limits: few) }
    }

    @Test func notAnArchiveIsOneLine() throws {
        let directory = try TestProcess.temporaryDirectory("devkit-zip")
        let path = directory.appendingPathComponent("x.zip").path
        try Data("not a zip at all".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: Diagnostic.self) { try UntrustedZip(path: path, kind: "zip archive (.dSYM.zip)") }
        #expect(error?.message.hasPrefix("not a readable zip archive (.dSYM.zip): ") == true)
        #expect(error?.description.contains("\n") == false)
    }
}
