import BinaryReading
import System

/// An ELF object file (32/64-bit, either byte order): header, sections, program headers,
/// symbols, build-id and `.gnu_debuglink`.
///
/// Everything is read through one `ByteCursor`, so a truncated or corrupt file gives a
/// `DecodeError` naming the structure and byte offset; nothing here traps on bad input.
/// Holds its `MappedFile`, so the bytes stay valid as long as the `ELFFile` does.
public struct ELFFile: @unchecked Sendable {
    public let file: MappedFile
    public let header: ELFHeader
    public let sections: [ELFSection]
    public let segments: [ELFSegment]

    /// Parses the headers of `file`. Symbols are read on demand (`symbols()`).
    public init(_ file: MappedFile) throws(DecodeError) {
        self.file = file
        var cursor = ByteCursor(file.bytes, section: "ELF header")
        let header = try ELFHeader(&cursor)
        self.header = header
        sections = try Self.readSections(file.bytes, header: header)
        segments = try Self.readSegments(file.bytes, header: header)
    }

    /// True when `bytes` begin with the ELF magic.
    public static func hasMagic(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x7f && bytes[1] == 0x45 && bytes[2] == 0x4c && bytes[3] == 0x46
    }

    /// The first section called `name`.
    public func section(named name: String) -> ELFSection? { sections.first { $0.name == name } }

    /// The file bytes of `section` (empty for `SHT_NOBITS`), bounds-checked against the file.
    public func contents(of section: ELFSection) throws(DecodeError) -> UnsafeRawBufferPointer {
        guard section.hasFileContents else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        var cursor = ByteCursor(file.bytes, section: section.name)
        // Invariant: the section's bytes lie inside the file.
        guard let start = Int(exactly: section.fileOffset), let count = Int(exactly: section.size),
              start <= file.bytes.count, count <= file.bytes.count - start
        else {
            throw DecodeError(section: section.name, offset: Int(clamping: section.fileOffset),
                              reason: "section of \(section.size) bytes at offset \(section.fileOffset) extends past the end of the \(file.bytes.count)-byte file")
        }
        try cursor.seek(to: start)
        return try cursor.readBytes(count)
    }

    /// The GNU build-id (`NT_GNU_BUILD_ID` in an `SHT_NOTE` section or `PT_NOTE` segment).
    public func buildID() throws(DecodeError) -> [UInt8]? {
        for section in sections where section.type == ELFSection.noteType {
            let notes = try ELFNote.read(try contents(of: section), baseOffset: Int(clamping: section.fileOffset),
                                         endian: header.endianness, section: section.name)
            if let id = notes.first(where: { $0.isGNUBuildID }) { return id.descriptor }
        }
        for segment in segments where segment.type == ELFSegment.noteType {
            guard let start = Int(exactly: segment.fileOffset), let count = Int(exactly: segment.fileSize),
                  start <= file.bytes.count, count <= file.bytes.count - start else { continue }
            let bytes = UnsafeRawBufferPointer(rebasing: file.bytes[start..<(start + count)])
            let notes = try ELFNote.read(bytes, baseOffset: start, endian: header.endianness, section: "PT_NOTE")
            if let id = notes.first(where: { $0.isGNUBuildID }) { return id.descriptor }
        }
        return nil
    }

    /// `.gnu_debuglink`: the separate debug file's name and the CRC-32 of its contents.
    public func debugLink() throws(DecodeError) -> (name: String, crc: UInt32)? {
        guard let section = section(named: ".gnu_debuglink") else { return nil }
        var cursor = ByteCursor(try contents(of: section), section: ".gnu_debuglink", baseOffset: Int(clamping: section.fileOffset))
        let name = try cursor.readCString()
        // The CRC follows the name's NUL, padded to a 4-byte boundary.
        try cursor.skip((4 - cursor.position % 4) % 4)
        let crc = try cursor.read(UInt32.self, endian: header.endianness)
        return (name, crc)
    }

    /// True when the file has a `.debug_info` (or compressed `.zdebug_info`) section with bytes.
    public var hasDWARF: Bool {
        sections.contains { ($0.name == ".debug_info" || $0.name == ".zdebug_info") && $0.hasFileContents && $0.size > 0 }
    }

    /// Symbols of `.symtab`, else `.dynsym` (a stripped binary keeps only the dynamic ones).
    public func symbols() throws(DecodeError) -> [ELFSymbol] {
        if let table = sections.first(where: { $0.type == ELFSection.symbolTableType }) {
            return try readSymbols(table)
        }
        if let table = sections.first(where: { $0.type == ELFSection.dynamicSymbolTableType }) {
            return try readSymbols(table)
        }
        return []
    }

    private func readSymbols(_ table: ELFSection) throws(DecodeError) -> [ELFSymbol] {
        // Invariant: sh_link names the string table, a section that exists.
        guard Int(table.link) < sections.count else {
            throw DecodeError(section: table.name, offset: Int(clamping: table.fileOffset), reason: "sh_link \(table.link) names no section")
        }
        let strings = try contents(of: sections[Int(table.link)])
        let data = try contents(of: table)
        let is64 = header.fileClass == .elf64
        let entrySize = is64 ? 24 : 16
        let e = header.endianness
        var cursor = ByteCursor(data, section: table.name, baseOffset: Int(clamping: table.fileOffset))
        var result: [ELFSymbol] = []
        result.reserveCapacity(data.count / entrySize)
        while cursor.remaining >= entrySize {
            let nameOffset = try cursor.read(UInt32.self, endian: e)
            var symbol = ELFSymbol(name: "", value: 0, size: 0, type: 0, binding: 0, sectionIndex: 0)
            let info: UInt8
            if is64 {
                info = try cursor.readUInt8()
                _ = try cursor.readUInt8()  // st_other
                symbol.sectionIndex = try cursor.read(UInt16.self, endian: e)
                symbol.value = try cursor.read(UInt64.self, endian: e)
                symbol.size = try cursor.read(UInt64.self, endian: e)
            } else {
                symbol.value = UInt64(try cursor.read(UInt32.self, endian: e))
                symbol.size = UInt64(try cursor.read(UInt32.self, endian: e))
                info = try cursor.readUInt8()
                _ = try cursor.readUInt8()
                symbol.sectionIndex = try cursor.read(UInt16.self, endian: e)
            }
            symbol.type = info & 0xf
            symbol.binding = info >> 4
            symbol.name = try Self.string(at: nameOffset, in: strings, table: sections[Int(table.link)])
            result.append(symbol)
        }
        return result
    }

    /// The NUL-terminated string at `offset` of a string table.
    static func string(at offset: UInt32, in table: UnsafeRawBufferPointer, table section: ELFSection) throws(DecodeError) -> String {
        var cursor = ByteCursor(table, section: section.name, baseOffset: Int(clamping: section.fileOffset))
        try cursor.seek(to: Int(offset))
        return try cursor.readCString()
    }

    private static func readSections(_ bytes: UnsafeRawBufferPointer, header: ELFHeader) throws(DecodeError) -> [ELFSection] {
        guard header.sectionHeaderOffset != 0 else { return [] }
        let is64 = header.fileClass == .elf64
        let expectedSize = is64 ? 64 : 40
        // Invariant: section headers have the size this class defines.
        guard Int(header.sectionHeaderEntrySize) == expectedSize else {
            throw DecodeError(section: "ELF header", offset: is64 ? 0x3a : 0x2e,
                              reason: "e_shentsize is \(header.sectionHeaderEntrySize), expected \(expectedSize)")
        }
        var cursor = ByteCursor(bytes, section: "section headers")
        guard let tableOffset = Int(exactly: header.sectionHeaderOffset), tableOffset <= bytes.count else {
            throw DecodeError(section: "ELF header", offset: is64 ? 0x28 : 0x20,
                              reason: "e_shoff \(header.sectionHeaderOffset) is past the end of the \(bytes.count)-byte file")
        }
        try cursor.seek(to: tableOffset)
        var count = Int(header.sectionHeaderCount)
        var first = try readSectionHeader(&cursor, is64: is64, endian: header.endianness)
        // Extended numbering: with 0 in e_shnum (and sections present) the count is section 0's sh_size.
        if count == 0 {
            guard let extended = Int(exactly: first.size) else { throw cursor.error("section count \(first.size) is too large") }
            count = extended
        }
        var shstrndx = Int(header.sectionNameTableIndex)
        if shstrndx == 0xffff { shstrndx = Int(first.link) }  // SHN_XINDEX
        // Invariant: the whole table lies in the file (checked before anything is allocated).
        guard count <= (bytes.count - tableOffset) / expectedSize else {
            throw DecodeError(section: "section headers", offset: tableOffset,
                              reason: "\(count) section headers of \(expectedSize) bytes do not fit in the file")
        }
        var result: [ELFSection] = []
        result.reserveCapacity(count)
        if count > 0 {
            first.name = ""
            result.append(first)
            for _ in 1..<max(count, 1) { result.append(try readSectionHeader(&cursor, is64: is64, endian: header.endianness)) }
        }
        // Names come from the section-name string table, when there is one.
        var nameTable: UnsafeRawBufferPointer?
        if shstrndx != 0, shstrndx < result.count {
            let table = result[shstrndx]
            if let start = Int(exactly: table.fileOffset), let size = Int(exactly: table.size),
               start <= bytes.count, size <= bytes.count - start, table.hasFileContents {
                nameTable = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + size)])
            } else {
                throw DecodeError(section: "section headers", offset: tableOffset + shstrndx * expectedSize,
                                  reason: "section-name string table extends past the end of the file")
            }
        }
        for index in result.indices {
            if let nameTable {
                let nameOffset = UInt32(truncatingIfNeeded: result[index].nameOffset)
                result[index].name = try string(at: nameOffset, in: nameTable, table: result[shstrndx])
            }
            try readCompression(&result[index], bytes: bytes, header: header)
        }
        return result
    }

    private static func readSectionHeader(_ cursor: inout ByteCursor, is64: Bool, endian e: Endianness) throws(DecodeError) -> ELFSection {
        let word = is64 ? 8 : 4
        let nameOffset = try cursor.read(UInt32.self, endian: e)
        let type = try cursor.read(UInt32.self, endian: e)
        let flags = try cursor.readUInt(width: word, endian: e)
        let address = try cursor.readUInt(width: word, endian: e)
        let offset = try cursor.readUInt(width: word, endian: e)
        let size = try cursor.readUInt(width: word, endian: e)
        let link = try cursor.read(UInt32.self, endian: e)
        let info = try cursor.read(UInt32.self, endian: e)
        _ = try cursor.readUInt(width: word, endian: e)  // sh_addralign
        let entrySize = try cursor.readUInt(width: word, endian: e)
        var section = ELFSection(name: "", type: type, flags: flags, address: address, fileOffset: offset, size: size,
                                 link: link, info: info, entrySize: entrySize, compression: nil)
        section.nameOffset = nameOffset
        return section
    }

    /// Reads `Elf_Chdr` of an `SHF_COMPRESSED` section, or the "ZLIB" header of `.zdebug_*`.
    private static func readCompression(_ section: inout ELFSection, bytes: UnsafeRawBufferPointer, header: ELFHeader) throws(DecodeError) {
        let compressed = section.flags & ELFSection.compressedFlag != 0
        let gnuCompressed = section.name.hasPrefix(".zdebug")
        guard (compressed || gnuCompressed), section.hasFileContents else { return }
        var cursor = ByteCursor(bytes, section: section.name)
        guard let start = Int(exactly: section.fileOffset), start <= bytes.count else {
            throw DecodeError(section: section.name, offset: Int(clamping: section.fileOffset), reason: "compressed section starts past the end of the file")
        }
        try cursor.seek(to: start)
        if compressed {
            let type = try cursor.read(UInt32.self, endian: header.endianness)
            if header.fileClass == .elf64 { _ = try cursor.read(UInt32.self, endian: header.endianness) }  // ch_reserved
            let size = try cursor.readUInt(width: header.fileClass == .elf64 ? 8 : 4, endian: header.endianness)
            section.compression = .init(type: type, uncompressedSize: size)
        } else {
            let magic = try cursor.readBytes(4)
            guard magic.elementsEqual(Array("ZLIB".utf8)) else { return }
            section.compression = .init(type: 1, uncompressedSize: try cursor.read(UInt64.self, endian: .big))
        }
    }

    private static func readSegments(_ bytes: UnsafeRawBufferPointer, header: ELFHeader) throws(DecodeError) -> [ELFSegment] {
        guard header.programHeaderOffset != 0, header.programHeaderCount > 0 else { return [] }
        let is64 = header.fileClass == .elf64
        let entrySize = is64 ? 56 : 32
        guard Int(header.programHeaderEntrySize) == entrySize else {
            throw DecodeError(section: "ELF header", offset: is64 ? 0x36 : 0x2a,
                              reason: "e_phentsize is \(header.programHeaderEntrySize), expected \(entrySize)")
        }
        guard let tableOffset = Int(exactly: header.programHeaderOffset), tableOffset <= bytes.count else {
            throw DecodeError(section: "ELF header", offset: is64 ? 0x20 : 0x1c,
                              reason: "e_phoff \(header.programHeaderOffset) is past the end of the \(bytes.count)-byte file")
        }
        var cursor = ByteCursor(bytes, section: "program headers")
        try cursor.seek(to: tableOffset)
        var result: [ELFSegment] = []
        let e = header.endianness
        for _ in 0..<Int(header.programHeaderCount) {
            var segment = ELFSegment(type: 0, flags: 0, fileOffset: 0, virtualAddress: 0, fileSize: 0, memorySize: 0)
            segment.type = try cursor.read(UInt32.self, endian: e)
            if is64 { segment.flags = try cursor.read(UInt32.self, endian: e) }
            let word = is64 ? 8 : 4
            segment.fileOffset = try cursor.readUInt(width: word, endian: e)
            segment.virtualAddress = try cursor.readUInt(width: word, endian: e)
            _ = try cursor.readUInt(width: word, endian: e)  // p_paddr
            segment.fileSize = try cursor.readUInt(width: word, endian: e)
            segment.memorySize = try cursor.readUInt(width: word, endian: e)
            if !is64 { segment.flags = try cursor.read(UInt32.self, endian: e) }
            _ = try cursor.readUInt(width: word, endian: e)  // p_align
            result.append(segment)
        }
        return result
    }
}
