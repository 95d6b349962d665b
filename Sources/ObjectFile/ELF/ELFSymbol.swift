/// One entry of `.symtab` or `.dynsym` (`Elf32_Sym` / `Elf64_Sym`).
public struct ELFSymbol: Sendable, Equatable {
    public var name: String
    public var value: UInt64
    public var size: UInt64
    /// `ELF_ST_TYPE(st_info)`: `STT_OBJECT` 1, `STT_FUNC` 2, `STT_SECTION` 3, `STT_FILE` 4, `STT_GNU_IFUNC` 10.
    public var type: UInt8
    /// `ELF_ST_BIND(st_info)`: `STB_LOCAL` 0, `STB_GLOBAL` 1, `STB_WEAK` 2.
    public var binding: UInt8
    /// `st_shndx`: the section the symbol is defined in; 0 (`SHN_UNDEF`) for an import.
    public var sectionIndex: UInt16

    public static let fileType: UInt8 = 4
    public static let localBinding: UInt8 = 0
    public static let functionType: UInt8 = 2
    public static let indirectFunctionType: UInt8 = 10

    public static let noType: UInt8 = 0
    /// `SHN_LORESERVE`: section indices from here on are special (`SHN_ABS`, `SHN_COMMON`, …).
    public static let firstReservedSection: UInt16 = 0xff00

    /// A defined function (`STT_FUNC` or `STT_GNU_IFUNC`), the symbols that name code.
    public var isDefinedFunction: Bool {
        (type == Self.functionType || type == Self.indirectFunctionType) && sectionIndex != 0
    }

    /// A label defined in a section (`STT_NOTYPE`, not absolute or common): how assembly
    /// names its functions and the entry points inside them (BoringSSL's
    /// `process_extra_in_trailer` inside `chacha20_poly1305_seal_sse41`). ARM's mapping
    /// symbols (`$a`, `$d`, `$t`, `$x`, with or without a `.suffix`) mark code and data
    /// kinds, not places, and are not labels here.
    public var isDefinedLabel: Bool {
        guard type == Self.noType, sectionIndex != 0, sectionIndex < Self.firstReservedSection, !name.isEmpty else { return false }
        let utf8 = Array(name.utf8.prefix(3))
        let isMappingSymbol = utf8.first == UInt8(ascii: "$") && utf8.count >= 2
            && [UInt8(ascii: "a"), UInt8(ascii: "d"), UInt8(ascii: "t"), UInt8(ascii: "x")].contains(utf8[1])
            && (utf8.count == 2 || utf8[2] == UInt8(ascii: "."))
        return !isMappingSymbol
    }
}
