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
    /// nil for libdw to read it.
    static func read(_ sections: Sections, at offset: UInt64, compilationDirectory: [UInt8]?, addressSize: Int) -> Table? {
        let section = sections.debugLine
        guard let start = Int(exactly: offset), start < section.count else { return nil }
        var p = start
        // Header.
        guard let length32 = u32(section, &p) else { return nil }
        var offsetSize = 4
        var unitLength = UInt64(length32)
        if length32 == 0xffff_ffff {
            guard let length64 = u64(section, &p) else { return nil }
            unitLength = length64
            offsetSize = 8
        } else if length32 >= 0xffff_fff0 {
            return nil
        }
        guard unitLength <= UInt64(section.count - p) else { return nil }
        let end = p + Int(unitLength)
        guard end - p >= 2 else { return nil }
        let version = Int(section.loadUnaligned(fromByteOffset: p, as: UInt16.self))
        p += 2
        guard version >= 2, version <= 5 else { return nil }
        if version >= 5 {
            guard end - p >= 2, Int(section[p]) == addressSize, section[p + 1] == 0 else { return nil }
            p += 2
        }
        guard end - p >= offsetSize else { return nil }
        let headerLength = offsetSize == 4 ? UInt64(section.loadUnaligned(fromByteOffset: p, as: UInt32.self))
                                           : section.loadUnaligned(fromByteOffset: p, as: UInt64.self)
        p += offsetSize
        let headerStart = p
        guard headerLength <= UInt64(end - headerStart) else { return nil }
        let headerEnd = headerStart + Int(headerLength)
        guard end - p >= 1 else { return nil }
        let minimumInstructionLength = UInt32(section[p])
        p += 1
        if version >= 4 {
            // VLIW operation indices are not restated here.
            guard end - p >= 1, section[p] == 1 else { return nil }
            p += 1
        }
        guard end - p >= 4 else { return nil }
        let defaultIsStatement = section[p]
        let lineBase = Int32(Int8(bitPattern: section[p + 1]))
        let lineRange = UInt32(section[p + 2])
        let opcodeBase = Int(section[p + 3])
        p += 4
        // libdw checks some opcodes' lengths as it meets them, and reads `DW_LNE_set_discriminator`'s
        // through the standard table: the usual lengths only, a usual table only.
        guard defaultIsStatement <= 1, lineRange != 0, opcodeBase >= 10, end - p >= opcodeBase - 1 else { return nil }
        let lengths = p - 1  // lengths[opcode] is the byte at lengths + opcode
        for opcode in 1..<min(opcodeBase, 13) where section[lengths + opcode] != standardLengths[opcode - 1] { return nil }
        p += opcodeBase - 1

        // Directories and files, then the names libdw makes of them.
        var directories: [[UInt8]?] = []
        var files: [String] = []
        if version < 5 {
            directories.append(compilationDirectory)
            while true {
                guard p < headerEnd else { return nil }
                if section[p] == 0 { p += 1; break }
                guard let name = cString(section, &p, limit: headerEnd) else { return nil }
                directories.append(name)
            }
            files.append("???")
            while true {
                guard p < headerEnd else { return nil }
                if section[p] == 0 { p += 1; break }
                guard let name = cString(section, &p, limit: headerEnd),
                      let directory = uleb(section, &p, limit: headerEnd), directory < UInt64(directories.count),
                      uleb(section, &p, limit: headerEnd) != nil, uleb(section, &p, limit: headerEnd) != nil,
                      let joined = join(directories[Int(directory)], name) else { return nil }
                files.append(joined)
            }
        } else {
            guard let directoryFormat = entryFormat(section, &p, limit: headerEnd, needsDirectoryIndex: false),
                  let directoryCount = uleb(section, &p, limit: headerEnd) else { return nil }
            guard directoryFormat.forms.isEmpty ? directoryCount == 0
                    : directoryCount <= UInt64((headerEnd - p) / directoryFormat.forms.count) else { return nil }
            for _ in 0..<Int(directoryCount) {
                guard let entry = self.entry(section, &p, limit: headerEnd, format: directoryFormat, offsetSize: offsetSize, sections: sections),
                      let path = entry.path else { return nil }
                directories.append(path)
            }
            guard let fileFormat = entryFormat(section, &p, limit: headerEnd, needsDirectoryIndex: true),
                  let fileCount = uleb(section, &p, limit: headerEnd) else { return nil }
            guard fileFormat.forms.isEmpty ? fileCount == 0
                    : fileCount <= UInt64((headerEnd - p) / fileFormat.forms.count) else { return nil }
            files.append("???")
            for index in 0..<Int(fileCount) {
                guard let entry = self.entry(section, &p, limit: headerEnd, format: fileFormat, offsetSize: offsetSize, sections: sections),
                      let name = entry.path, let directory = entry.directory, directory < UInt64(directories.count),
                      let joined = join(directories[Int(directory)], name) else { return nil }
                // File 0 takes the place libdw keeps for a missing file ("???"), as in libdw.
                if index == 0 { files[0] = joined } else { files.append(joined) }
            }
        }
        // libdw reads a CUBIN string offset in the last 4 bytes; anything else left over is an error.
        guard p == headerEnd else { return nil }
        var firstDirectory: String?
        if let first = directories.first, let first {
            guard let text = utf8(first) else { return nil }
            firstDirectory = text
        }

        // The program. Rows as `DWARFReader` takes them from libdw: a file index past the
        // table is -1 (`dwarf_line_file` fails), a negative line 0.
        var rows: [DWARFLineRow] = []
        rows.reserveCapacity(max(16, (end - p) / 3))
        let fileCount = UInt32(clamping: files.count)
        var address: UInt64 = 0
        var file: UInt32 = 1
        var line: Int64 = 1
        var column: UInt32 = 0
        var isa: UInt64 = 0
        var sorted = true
        var lastAddress: UInt64 = 0
        var lastIsEnd = true
        // Adds a row as libdw's `add_new_line` would, or false where libdw refuses the table.
        func emit(_ isEnd: Bool) -> Bool {
            guard let rowLine = Int32(exactly: line), column <= UInt32(UInt16.max), isa <= 255 else { return false }
            // Out of libdw's order: a lower address, or an end of sequence after a row at its address.
            if address < lastAddress || (address == lastAddress && isEnd && !lastIsEnd) { sorted = false }
            lastAddress = address
            lastIsEnd = isEnd
            rows.append(DWARFLineRow(address: address, file: file < fileCount ? Int32(clamping: file) : -1,
                                     line: UInt32(clamping: rowLine), column: column, isEndSequence: isEnd))
            return true
        }
        func advance(_ operations: UInt32) {
            // libdw multiplies in `unsigned int`.
            address &+= UInt64(minimumInstructionLength &* operations)
        }
        while p < end {
            let opcode = Int(section[p])
            p += 1
            if opcode >= opcodeBase {
                let adjusted = UInt32(opcode - opcodeBase)
                line &+= Int64(lineBase + Int32(adjusted % lineRange))
                advance(adjusted / lineRange)
                guard emit(false) else { return nil }
            } else if opcode == 0 {
                guard end - p >= 2 else { return nil }
                let length = Int(section[p])
                p += 1
                guard end - p >= length else { return nil }
                let sub = section[p]
                p += 1
                switch sub {
                case 1:  // DW_LNE_end_sequence
                    guard emit(true) else { return nil }
                    address = 0; file = 1; line = 1; column = 0; isa = 0
                case 2:  // DW_LNE_set_address, the unit's address size whatever the length says
                    guard end - p >= addressSize else { return nil }
                    switch addressSize {
                    case 8: address = section.loadUnaligned(fromByteOffset: p, as: UInt64.self)
                    case 4: address = UInt64(section.loadUnaligned(fromByteOffset: p, as: UInt32.self))
                    default: return nil
                    }
                    p += addressSize
                case 4:  // DW_LNE_set_discriminator
                    guard p < end, uleb(section, &p, limit: end) != nil else { return nil }
                case 3, 0x80, 0x81:
                    // DW_LNE_define_file (a file table that grows), NVIDIA's opcodes: libdw's.
                    return nil
                default:
                    guard length >= 1, end - (p - 1) >= length else { return nil }
                    p += length - 1
                }
            } else if opcode <= 12 {
                switch opcode {
                case 1:  // DW_LNS_copy
                    guard emit(false) else { return nil }
                case 2:  // DW_LNS_advance_pc
                    guard let value = uleb(section, &p, limit: end), let operations = UInt32(exactly: value) else { return nil }
                    advance(operations)
                case 3:  // DW_LNS_advance_line
                    guard let value = sleb(section, &p, limit: end), let delta = Int32(exactly: value) else { return nil }
                    line &+= Int64(delta)  // wrapping: a value past Int32 is refused at the next row anyway
                case 4:  // DW_LNS_set_file
                    guard let value = uleb(section, &p, limit: end), let index = UInt32(exactly: value) else { return nil }
                    file = index
                case 5:  // DW_LNS_set_column
                    guard let value = uleb(section, &p, limit: end), let index = UInt32(exactly: value) else { return nil }
                    column = index
                case 8:  // DW_LNS_const_add_pc
                    advance(UInt32(255 - opcodeBase) / lineRange)
                case 9:  // DW_LNS_fixed_advance_pc
                    guard end - p >= 2 else { return nil }
                    address &+= UInt64(section.loadUnaligned(fromByteOffset: p, as: UInt16.self))
                    p += 2
                case 12:  // DW_LNS_set_isa
                    guard let value = uleb(section, &p, limit: end), let index = UInt32(exactly: value) else { return nil }
                    isa = UInt64(index)
                default:  // DW_LNS_negate_stmt, set_basic_block, set_prologue_end, set_epilogue_begin
                    break
                }
            } else {
                // An opcode this table defines and libdw does not know: its operands skipped.
                for _ in 0..<Int(section[lengths + opcode]) {
                    guard p < end, uleb(section, &p, limit: end) != nil else { return nil }
                }
            }
        }

        if !sorted {
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

    // MARK: DWARF 5 entry formats

    /// An entry format: each field's form, and which is the path and which the directory index.
    private struct EntryFormat {
        var forms: [UInt64] = []
        var path: Int?
        var directory: Int?
    }

    private static func entryFormat(_ section: UnsafeRawBufferPointer, _ p: inout Int, limit: Int, needsDirectoryIndex: Bool) -> EntryFormat? {
        guard p < limit else { return nil }
        let count = Int(section[p])
        p += 1
        var format = EntryFormat()
        for index in 0..<count {
            guard p < limit, let content = uleb(section, &p, limit: limit), content <= 0xffff,
                  p < limit, let form = uleb(section, &p, limit: limit), form <= 0xffff else { return nil }
            format.forms.append(form)
            if content == 1 { format.path = index }  // DW_LNCT_path (the last one, as libdw)
            if content == 2 { format.directory = index }  // DW_LNCT_directory_index
        }
        if count > 0 && (format.path == nil || (needsDirectoryIndex && format.directory == nil)) { return nil }
        return format
    }

    /// One directory or file entry: its path's bytes and directory index.
    private static func entry(_ section: UnsafeRawBufferPointer, _ p: inout Int, limit: Int, format: EntryFormat, offsetSize: Int,
                              sections: Sections) -> (path: [UInt8]?, directory: UInt64?)? {
        var path: [UInt8]?
        var directory: UInt64?
        for (index, form) in format.forms.enumerated() {
            let isPath = index == format.path, isDirectory = index == format.directory
            switch form {
            case 0x08:  // DW_FORM_string
                guard let text = cString(section, &p, limit: limit) else { return nil }
                if isPath { path = text }
                if isDirectory { return nil }
            case 0x1f, 0x0e:  // DW_FORM_line_strp, DW_FORM_strp
                guard limit - p >= offsetSize else { return nil }
                let offset = offsetSize == 4 ? UInt64(section.loadUnaligned(fromByteOffset: p, as: UInt32.self))
                                             : section.loadUnaligned(fromByteOffset: p, as: UInt64.self)
                p += offsetSize
                if isPath {
                    guard let strings = form == 0x1f ? sections.debugLineString : sections.debugString,
                          let start = Int(exactly: offset), start < strings.count else { return nil }
                    var q = start
                    guard let text = cString(strings, &q, limit: strings.count) else { return nil }
                    path = text
                }
                if isDirectory { return nil }
            case 0x0f:  // DW_FORM_udata
                guard let value = uleb(section, &p, limit: limit) else { return nil }
                if isDirectory { directory = value }
                if isPath { return nil }
            case 0x0b, 0x05, 0x06, 0x07, 0x1e:  // DW_FORM_data1, data2, data4, data8, data16
                let size = form == 0x0b ? 1 : form == 0x05 ? 2 : form == 0x06 ? 4 : form == 0x07 ? 8 : 16
                guard limit - p >= size else { return nil }
                if isDirectory {
                    switch size {
                    case 1: directory = UInt64(section[p])
                    case 2: directory = UInt64(section.loadUnaligned(fromByteOffset: p, as: UInt16.self))
                    case 4: directory = UInt64(section.loadUnaligned(fromByteOffset: p, as: UInt32.self))
                    case 8: directory = section.loadUnaligned(fromByteOffset: p, as: UInt64.self)
                    default: return nil
                    }
                }
                if isPath { return nil }
                p += size
            case 0x09:  // DW_FORM_block
                guard let size = uleb(section, &p, limit: limit), size <= UInt64(limit - p) else { return nil }
                if isPath || isDirectory { return nil }
                p += Int(size)
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

    private static func cString(_ buffer: UnsafeRawBufferPointer, _ p: inout Int, limit: Int) -> [UInt8]? {
        var q = p
        while q < limit && buffer[q] != 0 { q += 1 }
        guard q < limit else { return nil }
        let bytes = [UInt8](buffer[p..<q])
        p = q + 1
        return bytes
    }

    private static func u32(_ buffer: UnsafeRawBufferPointer, _ p: inout Int) -> UInt32? {
        guard buffer.count - p >= 4 else { return nil }
        defer { p += 4 }
        return buffer.loadUnaligned(fromByteOffset: p, as: UInt32.self)
    }

    private static func u64(_ buffer: UnsafeRawBufferPointer, _ p: inout Int) -> UInt64? {
        guard buffer.count - p >= 8 else { return nil }
        defer { p += 8 }
        return buffer.loadUnaligned(fromByteOffset: p, as: UInt64.self)
    }

    /// An unsigned LEB128 of at most 64 bits ending before `limit`, or nil.
    @inline(__always)
    private static func uleb(_ buffer: UnsafeRawBufferPointer, _ p: inout Int, limit: Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while p < limit {
            let byte = buffer[p]
            p += 1
            guard shift < 64, shift < 63 || byte & 0x7e == 0 else { return nil }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    /// A signed LEB128 of at most 64 bits ending before `limit`, or nil.
    private static func sleb(_ buffer: UnsafeRawBufferPointer, _ p: inout Int, limit: Int) -> Int64? {
        var result: Int64 = 0
        var shift: Int64 = 0
        while p < limit {
            let byte = buffer[p]
            p += 1
            guard shift < 63 else { return nil }
            result |= Int64(byte & 0x7f) << shift
            shift += 7
            if byte & 0x80 == 0 {
                if shift < 64 && byte & 0x40 != 0 { result |= -1 << shift }
                return result
            }
        }
        return nil
    }
}
