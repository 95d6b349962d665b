import BinaryReading
import DevKitTestSupport
import Foundation
import ObjectFile
import PropertyList
import Provisioning
import Testing

/// .app directories, .ipa archives and the Mach-O code signature, built by
/// Scripts/fixtures/make-test-app around a profile signed by openssl.
@Suite(.serialized) struct AppBundleTests {
    static let repoRoot = Corpus.repoRoot

    /// A fresh app around a development profile; nil (skipped) without openssl.
    static func makeApp(fat: Bool = false) throws -> (ProfileFactory, URL)? {
        guard ProfileFactory.opensslAvailable else { print("skipped: openssl not installed"); return nil }
        let factory = try ProfileFactory()
        let profile = try factory.write(try factory.sign(try factory.payload()), name: "dev.mobileprovision")
        let out = factory.directory.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try TestApp.make(in: out, profile: profile, repoRoot: repoRoot, fat: fat)
        return (factory, out)
    }

    @Test(arguments: [false, true])
    func entitlementsFromTheCodeSignature(fat: Bool) throws {
        guard let (factory, out) = try Self.makeApp(fat: fat) else { return }
        defer { withExtendedLifetime(factory) {} }
        let bytes = [UInt8](try Data(contentsOf: out.appendingPathComponent("Demo.app/Demo")))
        let images = try MachOFile.images(bytes)
        #expect(images.count == 1)
        #expect(images.first?.architecture == "arm64")
        #expect(images.first?.offset == (fat ? 4096 : 0))
        let signature = try #require(try CodeSignature.read(bytes, image: images[0]))
        #expect(signature.blobs.map(\.slot) == [5, 7])
        // The XML and DER blobs decode to the same dictionary (keys in different orders).
        let xml = try PropertyListCoding.read(try #require(signature.entitlementsXML)).value
        let der = try DEREntitlements.decode(try #require(signature.entitlementsDER))
        #expect(xml.sortingKeys() == der.sortingKeys())
        let read = try #require(try BinaryEntitlements.read(bytes))
        #expect(read.hasXML && read.hasDER)
        guard case .dictionary(let e) = read.entitlements else { Issue.record("not a dictionary"); return }
        #expect(e["get-task-allow"] == .bool(true))
        #expect(e["application-identifier"] == .string("ABCDE12345.com.example.app"))
    }

    @Test func appDirectoryAndIPAAgree() throws {
        guard let (factory, out) = try Self.makeApp() else { return }
        defer { withExtendedLifetime(factory) {} }
        let directory = try AppDirectoryReader.read(out.appendingPathComponent("Demo.app").path)
        let ipa = try IPAReader.read(out.appendingPathComponent("Demo.ipa").path)
        for app in [directory, ipa] {
            #expect(app.bundleIdentifier == "com.example.app")
            #expect(app.shortVersion == "1.2.3" && app.bundleVersion == "45")
            #expect(app.displayName == "Demo App")
            let profile = try ProfileReader.read(try #require(app.embeddedProfile))
            #expect(profile.signature.isValid)
            #expect(profile.profile.kind == .development)
            #expect(try BinaryEntitlements.read(try #require(app.executable)) != nil)
        }
        #expect(directory.embeddedProfile == ipa.embeddedProfile)
        #expect(directory.executable == ipa.executable)
        #expect(ipa.location.hasSuffix("Demo.ipa!Payload/Demo.app"))
    }

    @Test(arguments: [
        ("zip-slip.ipa", "unsafe path"),
        ("bomb.ipa", "over the 8388608-byte limit"),
        ("liar.ipa", "inflates past the 8388608-byte limit"),
    ])
    func hostileArchives(_ name: String, _ message: String) throws {
        guard let (factory, out) = try Self.makeApp() else { return }
        defer { withExtendedLifetime(factory) {} }
        let before = try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path)
        let error = #expect(throws: ProvisioningError.self) { try IPAReader.read(out.appendingPathComponent(name).path) }
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        // Nothing was written beside the output directory (the ../../evil.txt entry).
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path) == before)
    }

    @Test func missingProfileIsAnError() throws {
        guard let (factory, out) = try Self.makeApp() else { return }
        defer { withExtendedLifetime(factory) {} }
        let input = try ProvisioningInput.load(out.appendingPathComponent("noprofile.ipa").path)
        let error = #expect(throws: ProvisioningError.self) { try input.profileBytes() }
        #expect(error?.message.contains("no embedded provisioning profile") == true)
    }

    /// Every prefix of the signed Mach-O: an error with an offset, or "unsigned", never a trap.
    @Test func truncatedMachOAtEveryLength() throws {
        guard let (factory, out) = try Self.makeApp(fat: true) else { return }
        defer { withExtendedLifetime(factory) {} }
        let bytes = [UInt8](try Data(contentsOf: out.appendingPathComponent("Demo.app/Demo")))
        for length in 0..<bytes.count {
            let prefix = Array(bytes[0..<length])
            do {
                for image in try MachOFile.images(prefix) { _ = try CodeSignature.read(prefix, image: image) }
                Issue.record("prefix \(length) accepted")
            } catch {
                #expect(error.offset <= max(length, 4096 + 64))
            }
        }
    }

    @Test(arguments: [
        ("fat with 2^32-1 slices", [0xca, 0xfe, 0xba, 0xbe, 0xff, 0xff, 0xff, 0xff] as [UInt8], "architectures"),
        ("not Mach-O", [0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0], "not a Mach-O"),
        ("huge sizeofcmds", [0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0], "run past the end"),
    ])
    func malformedMachO(_ what: String, _ bytes: [UInt8], _ message: String) {
        let error = #expect(throws: DecodeError.self, "\(what)") { try MachOFile.images(bytes) }
        #expect(error?.reason.contains(message) == true, "\(what): \(String(describing: error))")
    }
}

/// Issue 15 §5: an .ipa whose executable is 64 MiB of zeros (about 64 KB deflated), made here
/// with Python's zipfile: refused by its compression ratio before it is held in memory.
@Suite struct IPACompressionRatioTests {
    @Test func anExecutableOfZerosIsRefusedByItsRatio() throws {
        let directory = try TestProcess.temporaryDirectory("devkit-ipa")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ipa = directory.appendingPathComponent("zeros.ipa").path
        let info = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.zeros</string>\
            <key>CFBundleExecutable</key><string>Zeros</string></dict></plist>
            """
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("Payload/Zeros.app/Info.plist", sys.argv[2])
                with z.open("Payload/Zeros.app/Zeros", "w", force_zip64=True) as f:
                    chunk = bytes(1 << 20)
                    for _ in range(64): f.write(chunk)
            """
        let made = try TestProcess.run("/usr/bin/env", ["python3", "-c", script, ipa, info])
        guard made.status == 0 else { print("skipped: python3 could not build the archive: \(made.stderr)"); return }
        let error = #expect(throws: ProvisioningError.self) { try IPAReader.read(ipa) }
        #expect(error?.message.contains("limit (64× its") == true, "\(String(describing: error))")
        #expect(error?.file?.hasSuffix("zeros.ipa!Payload/Zeros.app/Zeros") == true)
        // The same archive with the ratio check off is read (the limit is what refused it).
        var limits = IPAReader.Limits()
        limits.maximumCompressionRatio = 1 << 20
        #expect(try IPAReader.read(ipa, limits: limits).executable?.count == 64 << 20)
    }
}
