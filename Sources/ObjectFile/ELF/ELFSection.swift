import BinaryReading

/// One section header (`Elf32_Shdr` / `Elf64_Shdr`) with its resolved name.
public struct ELFSection: Sendable, Equatable {
    public var name: String
    /// `sh_type`: `SHT_PROGBITS` 1, `SHT_SYMTAB` 2, `SHT_STRTAB` 3, `SHT_NOTE` 7, `SHT_NOBITS` 8, `SHT_DYNSYM` 11.
    public var type: UInt32
    /// `sh_flags`: `SHF_ALLOC` 0x2, `SHF_EXECINSTR` 0x4, `SHF_COMPRESSED` 0x800.
    public var flags: UInt64
    public var address: UInt64
    public var fileOffset: UInt64
    public var size: UInt64
    public var link: UInt32
    public var info: UInt32
    public var entrySize: UInt64
    /// For an `SHF_COMPRESSED` section, its `Elf_Chdr`; for a `.zdebug_*` one, the
    /// uncompressed size from its "ZLIB" header. nil when stored plainly.
    public var compression: Compression?
    /// `sh_name`, an offset into the section-name string table.
    var nameOffset: UInt32 = 0

    /// How a compressed section is stored. libdw decompresses DWARF sections itself; this is
    /// for reporting and for readers that must not mistake compressed bytes for data.
    public struct Compression: Sendable, Equatable {
        /// `ch_type`: `ELFCOMPRESS_ZLIB` 1, `ELFCOMPRESS_ZSTD` 2; 1 for `.zdebug`.
        public var type: UInt32
        public var uncompressedSize: UInt64
    }

    public static let symbolTableType: UInt32 = 2
    public static let noteType: UInt32 = 7
    public static let noBitsType: UInt32 = 8
    public static let dynamicSymbolTableType: UInt32 = 11
    public static let allocFlag: UInt64 = 0x2
    public static let executableFlag: UInt64 = 0x4
    public static let compressedFlag: UInt64 = 0x800

    /// True when the section occupies memory at run time (`SHF_ALLOC`).
    public var isAllocated: Bool { flags & Self.allocFlag != 0 }
    /// True when the section holds code (`SHF_EXECINSTR`).
    public var isExecutable: Bool { flags & Self.executableFlag != 0 }
    /// True when the section has bytes in the file (not `SHT_NOBITS`).
    public var hasFileContents: Bool { type != Self.noBitsType && type != 0 }
}
