import BinaryReading

/// A unit's line table read from `.debug_line` by devkit itself, as libdw 0.188's
/// `dwarf_getsrcfiles` and `dwarf_getsrclines` give it: the same file names (joined with their
/// directory the way libdw joins them), the same rows in the same order (all rows sorted by
/// address, an end of sequence before other rows at its address, emission order otherwise),
/// the last row marked as an end of sequence.
///
/// Why: libdw reads a unit's whole line program into a linked list of rows allocated one by
/// one, sorts them with `qsort` and hands them out through six calls a row; on python3.11d
/// that was a third of a cold index build. Here a row costs a few dozen instructions.
///
/// Only the plain case is read here: anything libdw would refuse or read in a way this reader
/// does not restate (an out-of-range value, `DW_LNE_define_file`, a form or opcode length
/// other than the usual, a VLIW `maximum_operations_per_instruction`, a string that is not
/// valid UTF-8) makes `read` return nil, and the caller asks libdw, whose answer — or refusal —
/// is then the one given. So the answers are libdw's either way.
enum LineProgram {
    /// The sections a line table refers to, as bytes of the (uncompressed) image.
    struct Sections {
        var debugLine: UnsafeRawBufferPointer
        var debugLineString: UnsafeRawBufferPointer?
        var debugString: UnsafeRawBufferPointer?
    }

    /// What libdw's two calls give: file names, directory 0 (nil when libdw has none) and rows.
    struct Table {
        var files: [String]
        var firstDirectory: String?
        var rows: [DWARFLineRow]
    }

    /// The standard opcodes' operand counts libdw checks (`DW_LNS_copy` … `DW_LNS_set_isa`).
    private static let standardLengths: [UInt8] = [0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]

    /// The table at `offset` in `.debug_line` for a unit of `addressSize`-byte addresses and
    /// compilation directory `compilationDirectory` (its bytes; directory 0 before DWARF 5), or
    /// nil for libdw to read it. All bytes come through `ByteCursor`s: a read past a unit, its
    /// header or a string section throws, and any throw is a table left to libdw.
    static func read(_ sections: Sections, at offset: UInt64, compilationDirectory: [UInt8]?, addressSize: Int) -> Table? {
        do {
            return try readTable(sections, at: offset, compilationDirectory: compilationDirectory, addressSize: addressSize)
        } catch {
            return nil
        }
    }

    /// `read`, with malformed bytes thrown and the rest it leaves to libdw nil.
    private static func readTable(_ sections: Sections, at offset: UInt64, compilationDirectory: [UInt8]?,
                                  addressSize: Int) throws(DecodeError) -> Table? {
        // Integers are little-endian, as the native loads were on the hosts devkit runs on.
        var section = ByteCursor(sections.debugLine, section: ".debug_line")
        guard let start = Int(exactly: offset), start < section.count else { return nil }
        try section.seek(to: start)
        // Header.
        let length32 = try section.read(UInt32.self, endian: .little)
        var offsetSize = 4
        var unitLength = UInt64(length32)
        if length32 == 0xffff_ffff {
            unitLength = try section.read(UInt64.self, endian: .little)
            offsetSize = 8
        } else if length32 >= 0xffff_fff0 {
            return nil
        }
        guard let unitCount = Int(exactly: unitLength) else { return nil }
        // The unit, then the program once the header is read from it.
        var unit = try section.subCursor(count: unitCount)
        let version = Int(try unit.read(UInt16.self, endian: .little))
        guard version >= 2, version <= 5 else { return nil }
        if version >= 5 {
            guard Int(try unit.readUInt8()) == addressSize, try unit.readUInt8() == 0 else { return nil }
        }
        let headerLength = try unit.readUInt(width: offsetSize, endian: .little)
        guard let headerCount = Int(exactly: headerLength) else { return nil }
        // A header whose fixed fields run past its length is malformed, as libdw finds when it
        // reaches the directories; here the first read past it throws.
        var header = try unit.subCursor(count: headerCount)
        let minimumInstructionLength = UInt32(try header.readUInt8())
        if version >= 4 {
            // VLIW operation indices are not restated here.
            guard try header.readUInt8() == 1 else { return nil }
        }
        let defaultIsStatement = try header.readUInt8()
        let lineBase = Int32(Int8(bitPattern: try header.readUInt8()))
        let lineRange = UInt32(try header.readUInt8())
        let opcodeBase = Int(try header.readUInt8())
        // libdw checks some opcodes' lengths as it meets them, and reads `DW_LNE_set_discriminator`'s
        // through the standard table: the usual lengths only, a usual table only.
        guard defaultIsStatement <= 1, lineRange != 0, opcodeBase >= 10 else { return nil }
        let lengths = Array(try header.readBytes(opcodeBase - 1))  // lengths[opcode - 1]
        for opcode in 1..<min(opcodeBase, 13) where lengths[opcode - 1] != standardLengths[opcode - 1] { return nil }

        // Directories and files, then the names libdw makes of them.
        var directories: [[UInt8]?] = []
        var files: [String] = []
        if version < 5 {
            // Each list ends with an empty name (its NUL alone).
            directories.append(compilationDirectory)
            while true {
                let name = try header.readCStringBytes()
                if name.isEmpty { break }
                directories.append(Array(name))
            }
            files.append("???")
            while true {
                let name = try header.readCStringBytes()
                if name.isEmpty { break }
                let directory = try header.readULEB128()
                _ = try header.readULEB128()  // modification time
                _ = try header.readULEB128()  // size
                guard directory < UInt64(directories.count), let joined = join(directories[Int(directory)], Array(name)) else { return nil }
                files.append(joined)
            }
        } else {
            let lineStrings = sections.debugLineString.map { ByteCursor($0, section: ".debug_line_str") }
            let strings = sections.debugString.map { ByteCursor($0, section: ".debug_str") }
            guard let directoryFormat = try entryFormat(&header, needsDirectoryIndex: false) else { return nil }
            let directoryCount = try header.readULEB128()
            guard directoryFormat.forms.isEmpty ? directoryCount == 0
                    : directoryCount <= UInt64(header.remaining / directoryFormat.forms.count) else { return nil }
            for _ in 0..<Int(directoryCount) {
                guard let entry = try self.entry(&header, format: directoryFormat, offsetSize: offsetSize,
                                                 lineStrings: lineStrings, strings: strings),
                      let path = entry.path else { return nil }
                directories.append(path)
            }
            guard let fileFormat = try entryFormat(&header, needsDirectoryIndex: true) else { return nil }
            let fileCount = try header.readULEB128()
            guard fileFormat.forms.isEmpty ? fileCount == 0
                    : fileCount <= UInt64(header.remaining / fileFormat.forms.count) else { return nil }
            files.append("???")
            for index in 0..<Int(fileCount) {
                guard let entry = try self.entry(&header, format: fileFormat, offsetSize: offsetSize,
                                                 lineStrings: lineStrings, strings: strings),
                      let name = entry.path, let directory = entry.directory, directory < UInt64(directories.count),
                      let joined = join(directories[Int(directory)], name) else { return nil }
                // File 0 takes the place libdw keeps for a missing file ("???"), as in libdw.
                if index == 0 { files[0] = joined } else { files.append(joined) }
            }
        }
        // libdw reads a CUBIN string offset in the last 4 bytes; anything else left over is an error.
        guard header.remaining == 0 else { return nil }
        var firstDirectory: String?
        if let first = directories.first, let first {
            guard let text = utf8(first) else { return nil }
            firstDirectory = text
        }

        // The program: the rest of the unit.
        var program = unit
        var state = RowState(fileCount: UInt32(clamping: files.count), minimumInstructionLength: minimumInstructionLength)
        var rows: [DWARFLineRow] = []
        rows.reserveCapacity(max(16, program.remaining / 3))
        while program.remaining > 0 {
            let opcode = Int(try program.readUInt8())
            if opcode >= opcodeBase {
                let adjusted = UInt32(opcode - opcodeBase)
                state.line &+= Int64(lineBase + Int32(adjusted % lineRange))
                state.advance(adjusted / lineRange)
                guard state.emit(false, into: &rows) else { return nil }
            } else if opcode == 0 {
                guard program.remaining >= 2 else { return nil }
                let length = Int(try program.readUInt8())
                guard program.remaining >= length else { return nil }
                let sub = try program.readUInt8()
                switch sub {
                case 1:  // DW_LNE_end_sequence
                    guard state.emit(true, into: &rows) else { return nil }
                    state.address = 0; state.file = 1; state.line = 1; state.column = 0; state.isa = 0
                case 2:  // DW_LNE_set_address, the unit's address size whatever the length says
                    switch addressSize {
                    case 8, 4: state.address = try program.readUInt(width: addressSize, endian: .little)
                    default: return nil
                    }
                case 4:  // DW_LNE_set_discriminator
                    _ = try program.readULEB128()
                case 3, 0x80, 0x81:
                    // DW_LNE_define_file (a file table that grows), NVIDIA's opcodes: libdw's.
                    return nil
                default:
                    guard length >= 1 else { return nil }
                    try program.skip(length - 1)
                }
            } else if opcode <= 12 {
                switch opcode {
                case 1:  // DW_LNS_copy
                    guard state.emit(false, into: &rows) else { return nil }
                case 2:  // DW_LNS_advance_pc
                    guard let operations = UInt32(exactly: try program.readULEB128()) else { return nil }
                    state.advance(operations)
                case 3:  // DW_LNS_advance_line
                    // At most 9 bytes, as this reader always took them (a 10th is left to libdw).
                    let start = program.position
                    let value = try program.readSLEB128()
                    guard program.position - start <= 9, let delta = Int32(exactly: value) else { return nil }
                    state.line &+= Int64(delta)  // wrapping: a value past Int32 is refused at the next row anyway
                case 4:  // DW_LNS_set_file
                    guard let index = UInt32(exactly: try program.readULEB128()) else { return nil }
                    state.file = index
                case 5:  // DW_LNS_set_column
                    guard let index = UInt32(exactly: try program.readULEB128()) else { return nil }
                    state.column = index
                case 8:  // DW_LNS_const_add_pc
                    state.advance(UInt32(255 - opcodeBase) / lineRange)
                case 9:  // DW_LNS_fixed_advance_pc
                    state.address &+= UInt64(try program.read(UInt16.self, endian: .little))
                case 12:  // DW_LNS_set_isa
                    guard let index = UInt32(exactly: try program.readULEB128()) else { return nil }
                    state.isa = UInt64(index)
                default:  // DW_LNS_negate_stmt, set_basic_block, set_prologue_end, set_epilogue_begin
                    break
                }
            } else {
                // An opcode this table defines and libdw does not know: its operands skipped.
                for _ in 0..<Int(lengths[opcode - 1]) {
                    _ = try program.readULEB128()
                }
            }
        }

        if !state.sorted {
            // libdw's order: address, then an end of sequence first, then emission order.
            var order = Array(rows.indices)
            order.sort { a, b in
                let x = rows[a], y = rows[b]
                if x.address != y.address { return x.address < y.address }
                if x.isEndSequence != y.isEndSequence { return x.isEndSequence }
                return a < b
            }
            rows = order.map { rows[$0] }
        }
        if !rows.isEmpty { rows[rows.count - 1].isEndSequence = true }
        return Table(files: files, firstDirectory: firstDirectory, rows: rows)
    }

    // MARK: rows

    /// The state machine's registers and what it knows of the rows made: a struct with mutating
    /// methods, not variables captured by a local function (those were boxed, and every row paid
    /// for a dynamic exclusivity check). The rows are the caller's local array: appended to
    /// through a struct's field, each append was a call.
    private struct RowState {
        let fileCount: UInt32
        let minimumInstructionLength: UInt32
        var address: UInt64 = 0
        var file: UInt32 = 1
        var line: Int64 = 1
        var column: UInt32 = 0
        var isa: UInt64 = 0
        /// False once a row comes out of libdw's order.
        var sorted = true
        var lastAddress: UInt64 = 0
        var lastIsEnd = true

        init(fileCount: UInt32, minimumInstructionLength: UInt32) {
            self.fileCount = fileCount
            self.minimumInstructionLength = minimumInstructionLength
        }

        /// Adds a row as libdw's `add_new_line` would, or false where libdw refuses the table.
        /// Rows as `DWARFReader` takes them from libdw: a file index past the table is -1
        /// (`dwarf_line_file` fails), a negative line 0.
        @inline(__always)
        mutating func emit(_ isEnd: Bool, into rows: inout [DWARFLineRow]) -> Bool {
            guard let rowLine = Int32(exactly: line), column <= UInt32(UInt16.max), isa <= 255 else { return false }
            // Out of libdw's order: a lower address, or an end of sequence after a row at its address.
            if address < lastAddress || (address == lastAddress && isEnd && !lastIsEnd) { sorted = false }
            lastAddress = address
            lastIsEnd = isEnd
            rows.append(DWARFLineRow(address: address, file: file < fileCount ? Int32(clamping: file) : -1,
                                     line: UInt32(clamping: rowLine), column: column, isEndSequence: isEnd))
            return true
        }

        mutating func advance(_ operations: UInt32) {
            // libdw multiplies in `unsigned int`.
            address &+= UInt64(minimumInstructionLength &* operations)
        }
    }

    // MARK: DWARF 5 entry formats

    /// An entry format: each field's form, and which is the path and which the directory index.
    private struct EntryFormat {
        var forms: [UInt64] = []
        var path: Int?
        var directory: Int?
    }

    private static func entryFormat(_ header: inout ByteCursor, needsDirectoryIndex: Bool) throws(DecodeError) -> EntryFormat? {
        let count = Int(try header.readUInt8())
        var format = EntryFormat()
        for index in 0..<count {
            let content = try header.readULEB128()
            guard content <= 0xffff else { return nil }
            let form = try header.readULEB128()
            guard form <= 0xffff else { return nil }
            format.forms.append(form)
            if content == 1 { format.path = index }  // DW_LNCT_path (the last one, as libdw)
            if content == 2 { format.directory = index }  // DW_LNCT_directory_index
        }
        if count > 0 && (format.path == nil || (needsDirectoryIndex && format.directory == nil)) { return nil }
        return format
    }

    /// One directory or file entry: its path's bytes and directory index. `lineStrings` and
    /// `strings` are `.debug_line_str` and `.debug_str`, nil when the image has none.
    private static func entry(_ header: inout ByteCursor, format: EntryFormat, offsetSize: Int,
                              lineStrings: ByteCursor?, strings: ByteCursor?) throws(DecodeError) -> (path: [UInt8]?, directory: UInt64?)? {
        var path: [UInt8]?
        var directory: UInt64?
        for (index, form) in format.forms.enumerated() {
            let isPath = index == format.path, isDirectory = index == format.directory
            switch form {
            case 0x08:  // DW_FORM_string
                let text = try header.readCStringBytes()
                if isPath { path = Array(text) }
                if isDirectory { return nil }
            case 0x1f, 0x0e:  // DW_FORM_line_strp, DW_FORM_strp
                let offset = try header.readUInt(width: offsetSize, endian: .little)
                if isPath {
                    guard let start = Int(exactly: offset), var table = form == 0x1f ? lineStrings : strings else { return nil }
                    try table.seek(to: start)
                    path = Array(try table.readCStringBytes())
                }
                if isDirectory { return nil }
            case 0x0f:  // DW_FORM_udata
                let value = try header.readULEB128()
                if isDirectory { directory = value }
                if isPath { return nil }
            case 0x0b, 0x05, 0x06, 0x07, 0x1e:  // DW_FORM_data1, data2, data4, data8, data16
                let size = form == 0x0b ? 1 : form == 0x05 ? 2 : form == 0x06 ? 4 : form == 0x07 ? 8 : 16
                if isPath || (isDirectory && size > 8) { return nil }
                if isDirectory {
                    directory = try header.readUInt(width: size, endian: .little)
                } else {
                    try header.skip(size)
                }
            case 0x09:  // DW_FORM_block
                guard let size = Int(exactly: try header.readULEB128()) else { return nil }
                if isPath || isDirectory { return nil }
                try header.skip(size)
            default:
                return nil
            }
        }
        return (path, directory)
    }

    // MARK: bytes

    /// libdw's name for a file: absolute as it is, else its directory, "/" and the name (the
    /// name alone when the directory is missing: DWARF 4 without `DW_AT_comp_dir`).
    private static func join(_ directory: [UInt8]?, _ name: [UInt8]) -> String? {
        if name.first == UInt8(ascii: "/") { return utf8(name) }
        guard let directory else { return utf8(name) }
        return utf8(directory + [UInt8(ascii: "/")] + name)
    }

    /// The bytes as a String, or nil if they are not valid UTF-8 (libdw's bytes would then be
    /// repaired as one string by the caller: not restated here).
    private static func utf8(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)
    }
}
