import BinaryReading

/// The ELF file header (`Elf32_Ehdr` / `Elf64_Ehdr`).
public struct ELFHeader: Sendable, Equatable {
    /// `EI_CLASS`: 32- or 64-bit layout.
    public enum Class: Sendable, Equatable { case elf32, elf64 }

    public var fileClass: Class
    /// `EI_DATA`: byte order of every multi-byte field.
    public var endianness: Endianness
    /// `e_type`: `ET_REL` 1, `ET_EXEC` 2, `ET_DYN` 3, `ET_CORE` 4.
    public var type: UInt16
    /// `e_machine`: `EM_X86_64` 62, `EM_AARCH64` 183, `EM_386` 3, `EM_ARM` 40, …
    public var machine: UInt16
    public var entry: UInt64
    var programHeaderOffset: UInt64
    var sectionHeaderOffset: UInt64
    var programHeaderEntrySize: UInt16
    var programHeaderCount: UInt16
    var sectionHeaderEntrySize: UInt16
    var sectionHeaderCount: UInt16
    var sectionNameTableIndex: UInt16

    public static let relocatable: UInt16 = 1
    public static let executable: UInt16 = 2
    public static let sharedObject: UInt16 = 3
    public static let core: UInt16 = 4

    /// How many bytes `type(ofPrefix:)` needs: `e_ident` (16) and `e_type` (2).
    public static let typePrefixCount = 18

    /// `e_type` from the first `typePrefixCount` bytes of a file, without reading the rest of
    /// the header (a core is handed to libdwfl by path, so its start is all devkit reads);
    /// nil when the bytes are not an ELF identification.
    public static func type(ofPrefix prefix: [UInt8]) -> UInt16? {
        prefix.withUnsafeBytes { bytes -> UInt16? in
            // Invariant: the prefix starts with "\x7fELF" and names a byte order.
            guard ELFFile.hasMagic(bytes), bytes.count >= typePrefixCount else { return nil }
            let endianness: Endianness
            switch bytes[5] {
            case 1: endianness = .little
            case 2: endianness = .big
            default: return nil
            }
            var cursor = ByteCursor(bytes, section: "ELF header")
            do {
                try cursor.seek(to: 16)
                return try cursor.read(UInt16.self, endian: endianness)
            } catch {
                return nil
            }
        }
    }

    /// Reads the identification bytes and header at the start of the file.
    init(_ cursor: inout ByteCursor) throws(DecodeError) {
        let magic = try cursor.readBytes(4)
        // Invariant: the file starts with "\x7fELF".
        guard magic.elementsEqual([0x7f, 0x45, 0x4c, 0x46]) else { throw cursor.error("not an ELF file (bad magic)", at: 0) }
        let classByte = try cursor.readUInt8()
        switch classByte {
        case 1: fileClass = .elf32
        case 2: fileClass = .elf64
        default: throw cursor.error("unknown EI_CLASS \(classByte)", at: 4)
        }
        let dataByte = try cursor.readUInt8()
        switch dataByte {
        case 1: endianness = .little
        case 2: endianness = .big
        default: throw cursor.error("unknown EI_DATA \(dataByte)", at: 5)
        }
        try cursor.seek(to: 16)
        let e = endianness
        type = try cursor.read(UInt16.self, endian: e)
        machine = try cursor.read(UInt16.self, endian: e)
        _ = try cursor.read(UInt32.self, endian: e)  // e_version
        let word = fileClass == .elf64 ? 8 : 4
        entry = try cursor.readUInt(width: word, endian: e)
        programHeaderOffset = try cursor.readUInt(width: word, endian: e)
        sectionHeaderOffset = try cursor.readUInt(width: word, endian: e)
        _ = try cursor.read(UInt32.self, endian: e)  // e_flags
        _ = try cursor.read(UInt16.self, endian: e)  // e_ehsize
        programHeaderEntrySize = try cursor.read(UInt16.self, endian: e)
        programHeaderCount = try cursor.read(UInt16.self, endian: e)
        sectionHeaderEntrySize = try cursor.read(UInt16.self, endian: e)
        sectionHeaderCount = try cursor.read(UInt16.self, endian: e)
        sectionNameTableIndex = try cursor.read(UInt16.self, endian: e)
    }
}
