import BinaryReading

/// `LC_SYMTAB` of one image: its `nlist`/`nlist_64` entries and their string table, both
/// checked to lie inside the image before any entry is read. `MachOContents` reads the
/// defined symbols from it, `MachOImports` the undefined ones.
struct MachOSymbolTable {
    /// One `nlist_64` (or `nlist`) entry.
    struct Entry {
        /// `n_strx`: the name's offset in the string table.
        var nameOffset: UInt32
        /// `n_type`: `N_STAB` 0xe0, `N_PEXT` 0x10, `N_TYPE` 0x0e (`N_UNDF` 0, `N_SECT` 0xe), `N_EXT` 0x01.
        var type: UInt8
        /// `n_sect`: 1-based section number, 0 for none.
        var section: UInt8
        /// `n_desc`; for undefined symbols its high byte is the library ordinal.
        var description: UInt16
        var value: UInt64

        /// An undefined external symbol: an import (`N_UNDF | N_EXT`, no stab bits, and no
        /// value, which would make it a common symbol).
        var isImport: Bool { type & 0xe0 == 0 && type & 0x0e == 0 && type & 0x01 != 0 && value == 0 }
    }

    private let entries: ByteCursor
    private let strings: ByteCursor
    let count: UInt32
    private let is64Bit: Bool
    private let endian: Endianness

    /// `symtab` is the command's `symoff`, `nsyms`, `stroff`, `strsize`; `bytes` the image.
    init(_ symtab: (symbolOffset: UInt32, count: UInt32, stringOffset: UInt32, stringSize: UInt32),
         image: MachOSlice, bytes: UnsafeRawBufferPointer, endian: Endianness) throws(DecodeError) {
        let entrySize = image.is64Bit ? 16 : 12
        var file = ByteCursor(bytes, section: "LC_SYMTAB", baseOffset: image.offset)
        // Invariant: the table and its strings lie inside the image.
        guard UInt64(symtab.symbolOffset) + UInt64(symtab.count) * UInt64(entrySize) <= UInt64(bytes.count),
              UInt64(symtab.stringOffset) + UInt64(symtab.stringSize) <= UInt64(bytes.count) else {
            throw file.error("symbol table (\(symtab.count) entries at \(symtab.symbolOffset), strings at \(symtab.stringOffset)) lies outside the \(bytes.count)-byte image")
        }
        try file.seek(to: Int(symtab.stringOffset))
        strings = try file.subCursor(count: Int(symtab.stringSize), section: "LC_SYMTAB strings")
        try file.seek(to: Int(symtab.symbolOffset))
        entries = try file.subCursor(count: Int(symtab.count) * entrySize)
        count = symtab.count
        is64Bit = image.is64Bit
        self.endian = endian
    }

    /// Calls `body` with every entry, in table order.
    func forEach(_ body: (Entry) throws(DecodeError) -> Void) throws(DecodeError) {
        var cursor = entries
        for _ in 0..<count {
            let nameOffset = try cursor.read(UInt32.self, endian: endian)
            let type = try cursor.readUInt8()
            let section = try cursor.readUInt8()
            let description = try cursor.read(UInt16.self, endian: endian)
            let value = try cursor.readUInt(width: is64Bit ? 8 : 4, endian: endian)
            try body(Entry(nameOffset: nameOffset, type: type, section: section, description: description, value: value))
        }
    }

    /// The entry's name; nil when its offset is outside the string table.
    func name(of entry: Entry) throws(DecodeError) -> String? {
        var names = strings
        guard Int(entry.nameOffset) < names.count else { return nil }
        try names.seek(to: Int(entry.nameOffset))
        return try names.readCString()
    }
}
