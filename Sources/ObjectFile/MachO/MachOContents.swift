import BinaryReading

/// What symbolication needs from one Mach-O image: `LC_UUID`, segments and sections
/// (`LC_SEGMENT`/`LC_SEGMENT_64`, including the `__DWARF` segment of a dSYM) and the
/// `LC_SYMTAB` symbols, read through the same bounds-checked cursor as the header walk.
public struct MachOContents: Sendable {
    /// One section (`section` / `section_64`).
    public struct Section: Sendable, Equatable {
        public var segment: String
        public var name: String
        public var address: UInt64
        public var size: UInt64
        /// File offset, relative to the image (0 for zero-fill sections).
        public var offset: UInt32
        /// `flags`: `S_ATTR_PURE_INSTRUCTIONS` 0x80000000, `S_ATTR_SOME_INSTRUCTIONS` 0x400; type in the low byte (`S_ZEROFILL` 1).
        public var flags: UInt32

        /// True for sections holding code.
        public var isCode: Bool { flags & 0x8000_0400 != 0 }
    }

    /// One `LC_SEGMENT(_64)`.
    public struct Segment: Sendable, Equatable {
        public var name: String
        public var address: UInt64
        public var size: UInt64
    }

    /// `LC_UUID`: the 16 bytes that identify this build.
    public var uuid: [UInt8]?
    public var segments: [Segment]
    public var sections: [Section]
    /// Defined symbols from `LC_SYMTAB` that name something in a section (`N_SECT`, no stabs),
    /// as `ELFSymbol`s of type `STT_FUNC` when their section holds code. Mach-O symbols have
    /// no size (0). Names keep their leading underscore.
    public var symbols: [ELFSymbol]
    public var endianness: Endianness

    /// The lowest address of `__TEXT` (the address the image is linked at), 0 if none.
    public var textAddress: UInt64 { segments.first { $0.name == "__TEXT" }?.address ?? 0 }

    /// The section's bytes inside `image` (the slice's bytes), bounds-checked.
    public func contents(of section: Section, in image: UnsafeRawBufferPointer) throws(DecodeError) -> UnsafeRawBufferPointer {
        let start = Int(section.offset)
        guard let count = Int(exactly: section.size), start <= image.count, count <= image.count - start else {
            throw DecodeError(section: "\(section.segment),\(section.name)", offset: start,
                              reason: "section of \(section.size) bytes at offset \(section.offset) extends past the end of the \(image.count)-byte image")
        }
        return UnsafeRawBufferPointer(rebasing: image[start..<(start + count)])
    }

    static let segment32: UInt32 = 0x1, segment64: UInt32 = 0x19, uuidCommand: UInt32 = 0x1b, symtabCommand: UInt32 = 0x2

    /// Reads the commands of `image` from `bytes`, which must be that image's bytes (a thin
    /// file, or the slice of a fat file).
    public static func read(_ image: MachOSlice, bytes: UnsafeRawBufferPointer) throws(DecodeError) -> MachOContents {
        let endian = try image.endianness(in: bytes)
        var contents = MachOContents(uuid: nil, segments: [], sections: [], symbols: [], endianness: endian)
        var symtab: (symbolOffset: UInt32, count: UInt32, stringOffset: UInt32, stringSize: UInt32)?
        try image.forEachCommand(in: bytes) { command, cursor throws(DecodeError) in
            switch command.command {
            case uuidCommand:
                contents.uuid = Array(try cursor.readBytes(16))
            case symtabCommand:
                symtab = (try cursor.read(UInt32.self, endian: endian), try cursor.read(UInt32.self, endian: endian),
                          try cursor.read(UInt32.self, endian: endian), try cursor.read(UInt32.self, endian: endian))
            case segment32, segment64:
                let wide = command.command == segment64
                let word = wide ? 8 : 4
                let name = try fixedString(&cursor)
                let address = try cursor.readUInt(width: word, endian: endian)
                let size = try cursor.readUInt(width: word, endian: endian)
                try cursor.skip(2 * word + 8)  // fileoff, filesize, maxprot, initprot
                let sectionCount = try cursor.read(UInt32.self, endian: endian)
                try cursor.skip(4)  // flags
                contents.segments.append(Segment(name: name, address: address, size: size))
                // Invariant: the sections fit in the command (checked before reading any).
                let sectionSize = wide ? 80 : 68
                guard Int(sectionCount) <= cursor.remaining / sectionSize else {
                    throw cursor.error("segment \(name) declares \(sectionCount) sections; its command holds \(cursor.remaining / sectionSize)")
                }
                for _ in 0..<sectionCount {
                    let sectionName = try fixedString(&cursor)
                    let segmentName = try fixedString(&cursor)
                    let sectionAddress = try cursor.readUInt(width: word, endian: endian)
                    let sectionSize = try cursor.readUInt(width: word, endian: endian)
                    let offset = try cursor.read(UInt32.self, endian: endian)
                    try cursor.skip(12)  // align, reloff, nreloc
                    let flags = try cursor.read(UInt32.self, endian: endian)
                    try cursor.skip(wide ? 12 : 8)  // reserved
                    contents.sections.append(Section(segment: segmentName, name: sectionName, address: sectionAddress,
                                                     size: sectionSize, offset: offset, flags: flags))
                }
            default:
                break
            }
        }
        if let symtab { contents.symbols = try readSymbols(symtab, image: image, bytes: bytes, endian: endian, sections: contents.sections) }
        return contents
    }

    private static func readSymbols(_ symtab: (symbolOffset: UInt32, count: UInt32, stringOffset: UInt32, stringSize: UInt32),
                                    image: MachOSlice, bytes: UnsafeRawBufferPointer, endian: Endianness,
                                    sections: [Section]) throws(DecodeError) -> [ELFSymbol] {
        let table = try MachOSymbolTable(symtab, image: image, bytes: bytes, endian: endian)
        var symbols: [ELFSymbol] = []
        symbols.reserveCapacity(Int(table.count))
        try table.forEach { entry throws(DecodeError) in
            // Only defined, non-debugging symbols in a section: N_STAB bits clear, N_TYPE == N_SECT.
            guard entry.type & 0xe0 == 0, entry.type & 0x0e == 0x0e, entry.section > 0, let name = try table.name(of: entry) else { return }
            let isCode = Int(entry.section) <= sections.count && sections[Int(entry.section) - 1].isCode
            symbols.append(ELFSymbol(name: name, value: entry.value, size: 0, type: isCode ? ELFSymbol.functionType : 1,
                                     binding: entry.type & 0x01 != 0 ? 1 : 0, sectionIndex: UInt16(entry.section)))
        }
        return symbols
    }

    /// A 16-byte, NUL-padded name (segment and section names).
    private static func fixedString(_ cursor: inout ByteCursor) throws(DecodeError) -> String {
        let raw = try cursor.readBytes(16)
        return String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
}
