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

    /// A defined function (`STT_FUNC` or `STT_GNU_IFUNC`), the symbols that name code.
    public var isDefinedFunction: Bool {
        (type == Self.functionType || type == Self.indirectFunctionType) && sectionIndex != 0
    }
}
