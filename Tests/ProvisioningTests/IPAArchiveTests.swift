import DevKitTestSupport
import Foundation
import Provisioning
import Testing

/// .ipa archives read through libzip: archives written at test time by Python's zipfile and
/// Info-ZIP's `zip`, then damaged (truncated, bytes flipped, CRC or headers disagreeing).
/// Every one is read or refused with a message naming the file, never a trap.
@Suite struct IPAArchiveTests {
    static let info = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.zip</string>\
        <key>CFBundleExecutable</key><string>Zip</string></dict></plist>
        """

    /// Writes `name` in a fresh directory with Python's zipfile: Info.plist, an executable and
    /// `extra` more entries; nil (skipped) without python3.
    static func makeArchive(_ name: String = "App.ipa", compression: String = "ZIP_DEFLATED", extra: Int = 0) throws -> (URL, String)? {
        let directory = try TestProcess.temporaryDirectory("devkit-ipa-zip")
        let path = directory.appendingPathComponent(name).path
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.\(compression)) as z:
                z.writestr("Payload/Zip.app/Info.plist", sys.argv[2])
                z.writestr("Payload/Zip.app/Zip", b"\\xcf\\xfa\\xed\\xfe" + bytes(range(256)) * 8)
                for i in range(int(sys.argv[3])): z.writestr(f"Payload/Zip.app/r{i}.txt", "resource")
            """
        let made = try TestProcess.run("/usr/bin/env", ["python3", "-c", script, path, info, String(extra)])
        guard made.status == 0 else { print("skipped: python3 could not build the archive: \(made.stderr)"); return nil }
        return (directory, path)
    }

    static func refusal(_ path: String, limits: IPAReader.Limits = IPAReader.Limits()) -> ProvisioningError? {
        #expect(throws: ProvisioningError.self) { try IPAReader.read(path, limits: limits) }
    }

    @Test(arguments: ["ZIP_DEFLATED", "ZIP_STORED"])
    func readsAnArchive(_ compression: String) throws {
        guard let (directory, path) = try Self.makeArchive(compression: compression) else { return }
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try IPAReader.read(path)
        #expect(app.bundleIdentifier == "com.example.zip")
        #expect(app.executable?.count == 4 + 256 * 8)
        #expect(app.embeddedProfile == nil)
        #expect(app.location == "\(path)!Payload/Zip.app")
    }

    /// Info-ZIP's `zip` writes its own extra fields (timestamps, Unix ids) and a directory entry
    /// per folder.
    @Test func readsAnArchiveMadeByInfoZIP() throws {
        guard let zip = TestProcess.find("zip") else { print("skipped: zip not installed"); return }
        let directory = try TestProcess.temporaryDirectory("devkit-ipa-infozip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = directory.appendingPathComponent("Payload/Zip.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Self.info.write(to: app.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        try Data(repeating: 7, count: 5000).write(to: app.appendingPathComponent("Zip"))
        let made = try TestProcess.run(zip, ["-q", "-r", "App.ipa", "Payload"], cwd: directory)
        #expect(made.status == 0, "\(made.stderr)")
        let read = try IPAReader.read(directory.appendingPathComponent("App.ipa").path)
        #expect(read.bundleIdentifier == "com.example.zip")
        #expect(read.executable == [UInt8](repeating: 7, count: 5000))
    }

    /// Every prefix of an archive: refused with the file's name (or, for the whole file, read).
    @Test func truncatedAtEveryLength() throws {
        guard let (directory, path) = try Self.makeArchive() else { return }
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = directory.appendingPathComponent("cut.ipa").path
        for length in 0..<bytes.count {
            try bytes.prefix(length).write(to: URL(fileURLWithPath: cut))
            let error = Self.refusal(cut)
            #expect(error?.file?.hasPrefix(cut) == true, "\(length): \(String(describing: error))")
            #expect(error?.description.contains("\n") == false)
        }
        #expect(Self.refusal(cut)?.message.contains("not a readable zip archive (.ipa)") == true)
    }

    /// Bytes of the deflated Info.plist flipped, its CRC changed in both headers, and the local
    /// header naming another file than the central directory does.
    @Test(arguments: [
        ("flipped", "cannot be extracted"),
        ("crc", "cannot be extracted: CRC error"),
        ("renamed", "not a readable zip archive (.ipa): Zip archive inconsistent"),
    ])
    func damagedArchive(_ damage: String, _ message: String) throws {
        guard let (directory, path) = try Self.makeArchive() else { return }
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let local = try #require(Self.find([0x50, 0x4b, 0x03, 0x04], in: bytes))
        let central = try #require(Self.find([0x50, 0x4b, 0x01, 0x02], in: bytes))
        let nameLength = Int(bytes[local + 26]) | Int(bytes[local + 27]) << 8
        let data = local + 30 + nameLength
        switch damage {
        case "flipped": for i in data..<(data + 12) { bytes[i] ^= 0x55 }
        case "crc": bytes[local + 14] ^= 0xff; bytes[central + 16] ^= 0xff
        default: bytes[local + 30 + 8] = UInt8(ascii: "X")  // "Payload/" -> "Payload/X…" in the local header only
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = Self.refusal(path)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.file?.hasPrefix(path) == true)
    }

    @Test func entryCountIsCappedBeforeTheWalk() throws {
        guard let (directory, path) = try Self.makeArchive(extra: 10) else { return }
        defer { try? FileManager.default.removeItem(at: directory) }
        var limits = IPAReader.Limits()
        limits.maximumEntries = 5
        #expect(Self.refusal(path, limits: limits)?.message == "more than 5 entries; refusing the archive")
        limits.maximumEntries = 12
        #expect(try IPAReader.read(path, limits: limits).bundleIdentifier == "com.example.zip")
    }

    @Test func notAnArchive() throws {
        let directory = try TestProcess.temporaryDirectory("devkit-ipa-empty")
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("Empty.ipa").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(Self.refusal(empty)?.description == "\(empty): error: not a readable zip archive (.ipa): the file is empty")
        // A directory named .ipa is refused by the open, not handed to libzip.
        #expect(Self.refusal(directory.path)?.message.contains("directory") == true)
        // An .ipa given to `provision` is read by IPAReader, whatever its first bytes.
        let error = #expect(throws: ProvisioningError.self) { try ProvisioningInput.load(empty) }
        #expect(error?.message.contains("not a readable zip archive") == true)
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
