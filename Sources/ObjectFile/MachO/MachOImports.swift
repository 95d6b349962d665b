import BinaryReading

/// The symbols a Mach-O image imports, from each place the linker records them: undefined
/// external `LC_SYMTAB` entries, the imports table of `LC_DYLD_CHAINED_FIXUPS` (arm64 images
/// for iOS 13.4+ and macOS 11+), and the bind opcodes of `LC_DYLD_INFO(_ONLY)` (older
/// images). A stripped image keeps the last two, which dyld needs. Each name is listed once,
/// with the first place it was found. Layouts: `<mach-o/loader.h>`, `<mach-o/nlist.h>`,
/// `<mach-o/fixup-chains.h>`.
public enum MachOImports {
    /// `LC_LOAD_DYLIB`, `LC_LOAD_WEAK_DYLIB`, `LC_REEXPORT_DYLIB`, `LC_LAZY_LOAD_DYLIB`,
    /// `LC_LOAD_UPWARD_DYLIB`: each takes the next library ordinal.
    static let dylibCommands: Set<UInt32> = [0xc, 0x8000_0018, 0x8000_001f, 0x20, 0x8000_0023]
    /// `LC_DYLD_INFO`, `LC_DYLD_INFO_ONLY`.
    static let dyldInfo: UInt32 = 0x22, dyldInfoOnly: UInt32 = 0x8000_0022
    /// `LC_DYLD_CHAINED_FIXUPS`.
    static let chainedFixups: UInt32 = 0x8000_0034

    /// Every import of `image`; `bytes` must be that image's bytes (a thin file, or the slice).
    public static func read(_ image: MachOSlice, bytes: UnsafeRawBufferPointer) throws(DecodeError) -> [MachOImport] {
        let endian = try image.endianness(in: bytes)
        var libraries: [String] = []
        var symtab: (symbolOffset: UInt32, count: UInt32, stringOffset: UInt32, stringSize: UInt32)?
        var fixups: (offset: UInt32, size: UInt32)?
        var bindStreams: [(offset: UInt32, size: UInt32)] = []
        try image.forEachCommand(in: bytes) { command, cursor throws(DecodeError) in
            switch command.command {
            case let c where dylibCommands.contains(c):
                // dylib_command: the name (an lc_str) is at an offset from the command's start.
                let nameOffset = try cursor.read(UInt32.self, endian: endian)
                guard nameOffset >= 8, Int(nameOffset) < command.size else {
                    throw cursor.error("dylib name offset \(nameOffset) lies outside the \(command.size)-byte command", at: 8)
                }
                try cursor.seek(to: Int(nameOffset))
                libraries.append(try cursor.readCString())
            case MachOContents.symtabCommand:
                symtab = (try cursor.read(UInt32.self, endian: endian), try cursor.read(UInt32.self, endian: endian),
                          try cursor.read(UInt32.self, endian: endian), try cursor.read(UInt32.self, endian: endian))
            case chainedFixups:
                fixups = (try cursor.read(UInt32.self, endian: endian), try cursor.read(UInt32.self, endian: endian))
            case dyldInfo, dyldInfoOnly:
                try cursor.skip(8)  // rebase_off, rebase_size
                for _ in 0..<3 {  // bind, weak_bind, lazy_bind
                    bindStreams.append((try cursor.read(UInt32.self, endian: endian), try cursor.read(UInt32.self, endian: endian)))
                }
            default:
                break
            }
        }
        var found = Collector(libraries: libraries)
        if let symtab {
            let table = try MachOSymbolTable(symtab, image: image, bytes: bytes, endian: endian)
            try table.forEach { entry throws(DecodeError) in
                guard entry.isImport, let name = try table.name(of: entry), !name.isEmpty else { return }
                found.add(name, ordinal: Int(entry.description >> 8), special: 0xfe...0xff, origin: .symbolTable)
            }
        }
        if let fixups { try readChainedImports(try linkEdit(fixups, "LC_DYLD_CHAINED_FIXUPS", image: image, bytes: bytes), endian: endian, into: &found) }
        for stream in bindStreams where stream.size > 0 {
            try readBindOpcodes(try linkEdit(stream, "LC_DYLD_INFO bind opcodes", image: image, bytes: bytes), into: &found)
        }
        return found.imports
    }

    /// The names seen so far, each once, with its library.
    struct Collector {
        let libraries: [String]
        var imports: [MachOImport] = []
        var seen: Set<String> = []

        /// `ordinal` is 1-based into `libraries`; 0 and the `special` ordinals name no library.
        mutating func add(_ name: String, ordinal: Int, special: ClosedRange<Int>, origin: MachOImport.Origin) {
            guard seen.insert(name).inserted else { return }
            let library = ordinal >= 1 && ordinal <= libraries.count && !special.contains(ordinal) ? libraries[ordinal - 1] : nil
            imports.append(MachOImport(name: name, library: library, origin: origin))
        }
    }

    /// A `linkedit_data_command`-style range, checked to lie inside the image.
    private static func linkEdit(_ range: (offset: UInt32, size: UInt32), _ section: String, image: MachOSlice,
                                 bytes: UnsafeRawBufferPointer) throws(DecodeError) -> ByteCursor {
        var file = ByteCursor(bytes, section: section, baseOffset: image.offset)
        // Invariant: the data lies inside the image.
        guard UInt64(range.offset) + UInt64(range.size) <= UInt64(bytes.count) else {
            throw file.error("\(section) (\(range.size) bytes at \(range.offset)) lies outside the \(bytes.count)-byte image")
        }
        try file.seek(to: Int(range.offset))
        return try file.subCursor(count: Int(range.size))
    }

    /// `dyld_chained_fixups_header`, then `imports_count` imports of `imports_format` 1
    /// (`DYLD_CHAINED_IMPORT`, 4 bytes), 2 (`…_ADDEND`, 8) or 3 (`…_ADDEND64`, 16), whose
    /// names are offsets into the symbols area (uncompressed, `symbols_format` 0).
    private static func readChainedImports(_ data: ByteCursor, endian: Endianness, into found: inout Collector) throws(DecodeError) {
        var header = data
        let version = try header.read(UInt32.self, endian: endian)
        _ = try header.read(UInt32.self, endian: endian)  // starts_offset
        let importsOffset = try header.read(UInt32.self, endian: endian)
        let symbolsOffset = try header.read(UInt32.self, endian: endian)
        let count = try header.read(UInt32.self, endian: endian)
        let format = try header.read(UInt32.self, endian: endian)
        let symbolsFormat = try header.read(UInt32.self, endian: endian)
        guard version == 0 else { throw header.error("chained fixups version \(version) (only 0 is defined)", at: 0) }
        guard symbolsFormat == 0 else { throw header.error("compressed chained-fixup symbols (format \(symbolsFormat)) are not supported", at: 24) }
        let width: Int
        switch format {
        case 1: width = 4
        case 2: width = 8
        case 3: width = 16
        default: throw header.error("unknown chained-import format \(format)", at: 20)
        }
        // Invariant: the imports table and the symbols area lie inside the fixups data.
        guard Int(importsOffset) <= data.count, UInt64(count) * UInt64(width) <= UInt64(data.count - Int(importsOffset)),
              Int(symbolsOffset) <= data.count else {
            throw header.error("\(count) chained imports at \(importsOffset) (symbols at \(symbolsOffset)) run past the \(data.count)-byte fixups data", at: 8)
        }
        var table = data
        try table.seek(to: Int(importsOffset))
        var symbols = data
        try symbols.seek(to: Int(symbolsOffset))
        let names = try symbols.subCursor(count: symbols.remaining, section: "chained-fixup symbols")
        for _ in 0..<count {
            let ordinal: Int, nameOffset: UInt64
            if format == 3 {
                let raw = try table.read(UInt64.self, endian: endian)
                (ordinal, nameOffset) = (Int(raw & 0xffff), raw >> 32)
                try table.skip(8)  // addend
            } else {
                let raw = try table.read(UInt32.self, endian: endian)
                (ordinal, nameOffset) = (Int(raw & 0xff), UInt64(raw >> 9))
                if format == 2 { try table.skip(4) }  // addend
            }
            var name = names
            guard nameOffset < UInt64(name.count) else { throw table.error("chained import name offset \(nameOffset) lies outside the symbols area") }
            try name.seek(to: Int(nameOffset))
            // The top ordinals (-1 main executable, -2 flat lookup, -3 weak lookup) name no library.
            found.add(try name.readCString(), ordinal: ordinal, special: format == 3 ? 0xfffd...0xffff : 0xfd...0xff, origin: .chainedFixups)
        }
    }

    /// The bind opcodes of `LC_DYLD_INFO`: only the symbol names and the ordinal in effect
    /// when each is bound matter here (ld64.lld sets the ordinal after the name), so every
    /// other opcode's operands are skipped. Each opcode consumes at least one byte, so the
    /// walk ends.
    private static func readBindOpcodes(_ data: ByteCursor, into found: inout Collector) throws(DecodeError) {
        var cursor = data
        var ordinal = 0
        var symbol: String?
        while cursor.remaining > 0 {
            let byte = try cursor.readUInt8()
            let immediate = Int(byte & 0x0f)
            switch byte & 0xf0 {
            case 0x00: break  // BIND_OPCODE_DONE (the lazy stream has one after each entry)
            case 0x10: ordinal = immediate  // SET_DYLIB_ORDINAL_IMM
            case 0x20: ordinal = Int(clamping: try cursor.readULEB128())  // SET_DYLIB_ORDINAL_ULEB
            case 0x30: ordinal = immediate == 0 ? 0 : -1  // SET_DYLIB_SPECIAL_IMM: self, executable, flat or weak lookup
            case 0x40: symbol = try cursor.readCString()  // SET_SYMBOL_TRAILING_FLAGS_IMM, then the name
            case 0x50: break  // SET_TYPE_IMM
            case 0x60: _ = try cursor.readSLEB128()  // SET_ADDEND_SLEB
            case 0x70, 0x80: _ = try cursor.readULEB128()  // SET_SEGMENT_AND_OFFSET_ULEB, ADD_ADDR_ULEB
            case 0x90, 0xa0, 0xb0, 0xc0:  // DO_BIND, …_ADD_ADDR_ULEB, …_ADD_ADDR_IMM_SCALED, …_ULEB_TIMES_SKIPPING_ULEB
                if byte & 0xf0 == 0xa0 { _ = try cursor.readULEB128() }
                if byte & 0xf0 == 0xc0 { _ = try cursor.readULEB128(); _ = try cursor.readULEB128() }
                if let symbol, !symbol.isEmpty { found.add(symbol, ordinal: ordinal, special: 0...0, origin: .bindInfo) }
            case 0xd0:  // THREADED: SET_BIND_ORDINAL_TABLE_SIZE_ULEB (0) or APPLY (1)
                if immediate == 0 { _ = try cursor.readULEB128() }
            default:
                throw cursor.error("unknown bind opcode 0x\(String(byte, radix: 16))", at: cursor.position - 1)
            }
        }
    }
}
