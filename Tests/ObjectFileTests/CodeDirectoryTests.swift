import BinaryReading
import DevKitTestSupport
import Foundation
import ObjectFile
import System
import Testing

/// CodeDirectories written by two other implementations (ld64.lld's ad-hoc signer, and
/// Scripts/fixtures/make-signed-app in Python from cs_blobs.h), read back field by field, and
/// damaged ones that must fail with an offset rather than trap or allocate.
@Suite struct CodeDirectoryTests {
    static func directories(_ name: String) throws -> (bytes: [UInt8], image: MachOSlice, signature: CodeSignature, directories: [CodeDirectory]) {
        let bytes = try FileIO.read(try SignedApp.path(name))
        let image = try #require(try MachOFile.images(bytes).first)
        let signature = try #require(try CodeSignature.read(bytes, image: image))
        return (bytes, image, signature, try CodeDirectory.all(in: signature))
    }

    /// lld's signature: SHA-256, 4 KiB pages, ad hoc, code limit at the signature, the
    /// identifier lld writes (the output file's name).
    @Test func linkerSignature() throws {
        let (bytes, image, _, directories) = try Self.directories("lld/Tool")
        let directory = try #require(directories.first)
        #expect(directories.count == 1)
        #expect(directory.slot == 0)
        #expect(directory.hashType == .sha256)
        #expect(directory.pageSize == 4096)
        #expect(directory.isAdHoc)
        #expect(directory.identifier == "Tool")
        #expect(directory.specialSlotCount == 0)
        #expect(directory.codeLimit == image.codeSignature?.offset)
        #expect(directory.codeSlotCount == (directory.codeLimit + 4095) / 4096)
        #expect(directory.hash(special: 1) == nil)
        #expect(bytes.count > directory.codeLimit)
    }

    /// make-signed-app's app: a SHA-1 primary and a SHA-256 alternate, team identifier, seven
    /// special slots, the last page partial.
    @Test func primaryAndAlternate() throws {
        let (_, image, signature, directories) = try Self.directories("Signed.app/Signed")
        #expect(directories.map(\.slot) == [0, 0x1000])
        #expect(directories.map(\.hashType) == [.sha1, .sha256])
        for directory in directories {
            #expect(directory.identifier == "com.example.signed")
            #expect(directory.teamIdentifier == "ABCDE12345")
            #expect(directory.specialSlotCount == 7)
            #expect(directory.version == 0x20400)
            #expect(!directory.isAdHoc)
            #expect(directory.codeLimit == image.codeSignature?.offset)
            let last = directory.pageRange(directory.codeSlotCount - 1)
            #expect(last.upperBound == directory.codeLimit)
            #expect(last.count <= 4096)
        }
        #expect(signature.blob(slot: CodeSignature.cmsSlot)?.content.isEmpty == false)
        #expect(signature.blob(slot: 2)?.bytes == [0xfa, 0xde, 0x0c, 0x01, 0, 0, 0, 12, 0, 0, 0, 0])
    }

    /// Every prefix of the primary CodeDirectory and random damage to it: a `DecodeError`
    /// inside the blob or a directory whose slots all lie inside it, never a trap.
    @Test func damagedDirectoriesFailWithOffsets() throws {
        let (_, _, signature, _) = try Self.directories("Signed.app/Signed")
        let blob = try #require(signature.blob(slot: 0))
        let whole = blob.bytes
        func attempt(_ bytes: [UInt8]) {
            guard bytes.count >= 8 else { return }
            let damaged = CodeSignature.Blob(slot: 0, magic: 0xfade_0c02, offset: blob.offset, content: Array(bytes[8...]))
            do {
                let directory = try CodeDirectory.parse(damaged)
                // Parsed: every slot is readable.
                for index in 0..<directory.codeSlotCount { _ = directory.hash(code: index) }
                for slot in 0...directory.specialSlotCount + 1 { _ = directory.hash(special: slot) }
            } catch {
                #expect(error.offset >= blob.offset - 8 && error.offset <= blob.offset - 8 + bytes.count, "\(error)")
            }
        }
        for length in stride(from: 8, to: whole.count, by: 3) {
            var prefix = Array(whole[..<length])
            // The length field agrees with the prefix, as a SuperBlob that was cut would say.
            prefix.replaceSubrange(4..<8, with: withUnsafeBytes(of: UInt32(length).bigEndian, Array.init))
            attempt(prefix)
        }
        var random = SplitMix64(seed: 21)
        for _ in 0..<2000 {
            var copy = whole
            random.damage(&copy, maxFlips: 4, headBytes: 96)
            attempt(copy)
        }
    }

    @Test(arguments: [
        // (field offset, value, words of the error)
        (28, UInt32.max, "do not fit"),             // nCodeSlots
        (24, UInt32.max, "do not fit"),             // nSpecialSlots
        (16, UInt32.max, "do not fit"),             // hashOffset
        (20, UInt32.max, "identifier offset"),      // identOffset
        (32, UInt32(1), "expected 1"),              // codeLimit: one page, but more slots
        (8, UInt32(0x10000), "unsupported"),        // version
    ])
    func hostileField(_ field: Int, _ value: UInt32, _ words: String) throws {
        let (_, _, signature, _) = try Self.directories("Signed.app/Signed")
        let blob = try #require(signature.blob(slot: 0))
        var content = blob.content
        content.replaceSubrange((field - 8)..<(field - 4), with: withUnsafeBytes(of: value.bigEndian, Array.init))
        let damaged = CodeSignature.Blob(slot: 0, magic: blob.magic, offset: blob.offset, content: content)
        let error = try #require(throws: DecodeError.self) { try CodeDirectory.parse(damaged) }
        #expect(error.reason.contains(words), "\(error.reason)")
        #expect(error.offset >= blob.offset - 8 && error.offset < blob.offset - 8 + content.count + 8)
    }
}
