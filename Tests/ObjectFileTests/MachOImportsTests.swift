import BinaryReading
import DevKitTestSupport
import ObjectFile
import System
import Testing

/// MachOImports on executables linked at test time by Scripts/fixtures/make-privacy-app
/// (ld64.lld, arm64 iOS): with chained fixups and with bind opcodes, each also with an empty
/// LC_SYMTAB so the imports can only come from the fixups or the opcodes.
@Suite struct MachOImportsTests {
    static let expected: [String: String] = [
        "_stat": "libSystem", "_lstat": "libSystem", "_statfs": "libSystem", "_getattrlist": "libSystem",
        "_mach_absolute_time": "libSystem", "_NSFileSystemFreeSize": "Foundation", "_NSFileCreationDate": "Foundation",
        "_OBJC_CLASS_$_NSUserDefaults": "Foundation", "_OBJC_CLASS_$_UITextInputMode": "UIKit",
    ]

    static func imports(_ name: String) throws -> [MachOImport] {
        let file = try MappedFile(path: try PrivacyApp.path("imports/" + name))
        return try withExtendedLifetime(file) {
            let images = try MachOFile.images(file.bytes)
            #expect(images.count == 1)
            return try images.flatMap { try MachOImports.read($0, bytes: $0.bytes(in: file.bytes)) }
        }
    }

    @Test(arguments: [("chained", MachOImport.Origin.symbolTable), ("bind", .symbolTable),
                      ("chained-nosymtab", .chainedFixups), ("bind-nosymtab", .bindInfo)])
    func everyImportWithItsLibrary(_ name: String, origin: MachOImport.Origin) throws {
        let imports = try Self.imports(name)
        // ld64.lld may also import dyld_stub_binder, which no source names.
        #expect(Set(imports.map(\.name)).subtracting(["dyld_stub_binder"]) == Set(Self.expected.keys), "\(name): \(imports.map(\.name))")
        #expect(imports.count == Set(imports.map(\.name)).count, "each name once")
        for item in imports where Self.expected[item.name] != nil {
            let library = try #require(item.library, "\(name): \(item.name) has no library")
            #expect(library.contains(Self.expected[item.name] ?? "?"), "\(name): \(item.name) from \(library)")
            #expect(item.origin == origin, "\(name): \(item.name) from \(item.origin)")
        }
    }

    /// Every prefix and random byte flips of both kinds: an error or a list, never a trap.
    @Test func damagedImages() throws {
        for name in ["chained-nosymtab", "bind-nosymtab"] {
            let file = try MappedFile(path: try PrivacyApp.path("imports/" + name))
            let bytes = withExtendedLifetime(file) { Array(file.bytes) }
            func read(_ bytes: [UInt8]) {
                guard let images = try? MachOFile.images(bytes) else { return }
                bytes.withUnsafeBytes { raw in
                    for image in images { _ = try? MachOImports.read(image, bytes: image.bytes(in: raw)) }
                }
            }
            for length in stride(from: 0, to: bytes.count, by: 97) { read(Array(bytes[0..<length])) }
            var generator = SplitMix64(seed: 0x1d)
            for _ in 0..<300 {
                var copy = bytes
                generator.damage(&copy, maxFlips: 8, headBytes: bytes.count)
                read(copy)
            }
        }
    }
}
