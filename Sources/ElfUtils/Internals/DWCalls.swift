internal import CLibDW

// Every libdw and libelf call devkit makes goes through this file (STYLE.md §3): the one
// place that knows the C types, the return-code conventions, and how errors are captured.

/// A debugging information entry, by value (libdw's `Dwarf_Die`, valid while its `Dwarf` lives).
struct DIE {
    fileprivate var raw = Dwarf_Die()
}

/// An opened ELF image and its DWARF: `Elf *` plus `Dwarf *`.
final class DWHandle {
    fileprivate let elf: OpaquePointer
    fileprivate var dwarf: OpaquePointer
    /// Kept so an in-memory image (`elf_memory`) outlives the handles built on it.
    private let keepAlive: AnyObject?
    /// Whether more handles may be opened over the same bytes while this one is in use: libelf
    /// reads an `elf_memory` image in place, and inflating a compressed section rewrites its
    /// section header there (flag and size), so a second handle would read the compressed
    /// bytes as DWARF; an image of the other byte order is converted in place too. Images with
    /// neither are only read.
    let canShareImage: Bool

    private init(elf: OpaquePointer, dwarf: OpaquePointer, keepAlive: AnyObject?, canShareImage: Bool) {
        self.elf = elf
        self.dwarf = dwarf
        self.keepAlive = keepAlive
        self.canShareImage = canShareImage
    }

    deinit {
        dwarf_end(dwarf)
        elf_end(elf)
    }

    /// `elf_memory` + `dwarf_begin_elf` over bytes that `owner` keeps alive and unchanged.
    static func open(image: UnsafeRawBufferPointer, owner: AnyObject) throws(DWError) -> DWHandle {
        _ = elf_version(UInt32(EV_CURRENT))
        guard let base = image.baseAddress, image.count > 0 else {
            throw DWError(library: .libelf, code: 0, message: "empty image", operation: "elf_memory")
        }
        guard let elf = elf_memory(UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self)), image.count) else {
            throw elfError("elf_memory")
        }
        let hasCompressedSections: Bool
        do throws(DWError) {
            hasCompressedSections = try checkCompressedSizes(elf, image: image)
        } catch {
            elf_end(elf)
            throw error
        }
        var ehdr = GElf_Ehdr()
        let isNativeOrder = gelf_getehdr(elf, &ehdr) != nil
            && ehdr.e_ident.5 == UInt8(UInt32(1).littleEndian == 1 ? ELFDATA2LSB : ELFDATA2MSB)
        guard let dwarf = dwarf_begin_elf(elf, DWARF_C_READ, nil) else {
            let error = dwarfError("dwarf_begin_elf")
            elf_end(elf)
            throw error
        }
        return DWHandle(elf: elf, dwarf: dwarf, keepAlive: owner, canShareImage: !hasCompressedSections && isNativeOrder)
    }

    /// Largest uncompressed size libdw may inflate a compressed section to, as a multiple of
    /// its compressed size: DWARF compresses 3-10×, zeros about 1,000×.
    static let maximumCompressionRatio: UInt64 = 64
    /// Sections of up to this many compressed bytes may always claim the floor below.
    static let compressedSizeFloor: UInt64 = 16 << 20
    /// Largest total uncompressed size of all compressed sections of one image (4 GiB).
    static let maximumUncompressedTotal: UInt64 = 4 << 30

    /// Refuses an image whose `SHF_COMPRESSED` (`Elf_Chdr.ch_size`) or `.zdebug_*` ("ZLIB" +
    /// big-endian size) sections claim more than `maximumCompressionRatio` times their stored
    /// size (or `compressedSizeFloor`, whichever is larger), or more than
    /// `maximumUncompressedTotal` together: libdw allocates the claimed size before
    /// inflating, so a 1 MB file could cost 1 GB (issue 15 §5). Reads only section headers
    /// (`elf_nextscn`, `gelf_getshdr`) and the compression headers in `image`. Returns whether
    /// any section is compressed.
    private static func checkCompressedSizes(_ elf: OpaquePointer, image: UnsafeRawBufferPointer) throws(DWError) -> Bool {
        var namesIndex = 0
        let haveNames = elf_getshdrstrndx(elf, &namesIndex) == 0
        var is64 = false
        var ehdr = GElf_Ehdr()
        if gelf_getehdr(elf, &ehdr) != nil { is64 = ehdr.e_ident.4 == UInt8(ELFCLASS64) }
        let bigEndian = ehdr.e_ident.5 == UInt8(ELFDATA2MSB)
        var total: UInt64 = 0
        var found = false
        var section: OpaquePointer? = nil
        while let current = elf_nextscn(elf, section) {
            section = current
            var header = GElf_Shdr()
            guard gelf_getshdr(current, &header) != nil, header.sh_type != UInt32(SHT_NOBITS) else { continue }
            let name = haveNames ? elf_strptr(elf, namesIndex, Int(header.sh_name)).map { String(cString: $0) } : nil
            let stored = header.sh_size
            // The claimed size sits at a fixed place in the section's first bytes.
            let claimed: UInt64
            if header.sh_flags & UInt64(SHF_COMPRESSED) != 0 {
                // Elf64_Chdr: ch_type, ch_reserved, ch_size (8); Elf32_Chdr: ch_type, ch_size (4).
                guard let size = Self.readUInt(image, at: header.sh_offset, plus: is64 ? 8 : 4,
                                               width: is64 ? 8 : 4, bigEndian: bigEndian) else { continue }
                claimed = size
            } else if let name, name.hasPrefix(".zdebug"),
                      Self.readUInt(image, at: header.sh_offset, plus: 0, width: 4, bigEndian: true) == 0x5A4C_4942 {  // "ZLIB"
                guard let size = Self.readUInt(image, at: header.sh_offset, plus: 4, width: 8, bigEndian: true) else { continue }
                claimed = size
            } else {
                continue
            }
            found = true
            let (ratioLimit, overflow) = stored.multipliedReportingOverflow(by: maximumCompressionRatio)
            let limit = max(overflow ? UInt64.max : ratioLimit, compressedSizeFloor)
            total = total.addingReportingOverflow(claimed).overflow ? UInt64.max : total + claimed
            let label = name ?? "section \(elf_ndxscn(current))"
            // Invariant: no section inflates past its ratio (or the floor), nor all past the total cap.
            guard claimed <= limit else {
                throw DWError(library: .libelf, code: 0,
                              message: "\(label) claims \(claimed) bytes uncompressed from \(stored) compressed (more than \(maximumCompressionRatio)× its size): refused",
                              operation: "compressed section")
            }
            guard total <= maximumUncompressedTotal else {
                throw DWError(library: .libelf, code: 0,
                              message: "compressed sections claim \(total) bytes uncompressed in all (over the \(maximumUncompressedTotal >> 30) GiB cap) at \(label): refused",
                              operation: "compressed section")
            }
        }
        return found
    }

    /// The unsigned integer of `width` bytes at `offset + plus` in `image`; nil past its end.
    private static func readUInt(_ image: UnsafeRawBufferPointer, at offset: UInt64, plus: Int, width: Int, bigEndian: Bool) -> UInt64? {
        guard let start = Int(exactly: offset), start <= image.count, plus <= image.count - start,
              width <= image.count - start - plus else { return nil }
        var value: UInt64 = 0
        for i in 0..<width {
            let byte = UInt64(image[start + plus + (bigEndian ? i : width - 1 - i)])
            value = value << 8 | byte
        }
        return value
    }

    // MARK: units

    /// `dwarf_end` + `dwarf_begin_elf` on the same ELF: frees every unit's line table and DIE
    /// caches (libdw keeps them until the end) while sections libelf already decompressed stay.
    /// DIEs from before are invalid afterwards.
    func reopen() throws(DWError) {
        dwarf_end(dwarf)
        guard let fresh = dwarf_begin_elf(elf, DWARF_C_READ, nil) else { throw Self.dwarfError("dwarf_begin_elf") }
        dwarf = fresh
    }

    /// Unit-walk position: the `.debug_info` offset of the next unit header, so a walk can
    /// continue across `reopen()`.
    struct UnitCursor { fileprivate var offset: UInt64 = 0 }

    /// The next unit (`dwarf_next_unit` + `dwarf_offdie`): its DIE, DWARF version and address
    /// size; nil at the end.
    func nextUnit(_ cursor: inout UnitCursor) throws(DWError) -> (die: DIE, version: Int, addressSize: Int)? {
        var next: Dwarf_Off = 0
        var headerSize = 0
        var version: Dwarf_Half = 0
        var addressSize: UInt8 = 0
        let rc = dwarf_next_unit(dwarf, cursor.offset, &next, &headerSize, &version, nil, &addressSize, nil, nil, nil)
        if rc == 1 { return nil }
        guard rc == 0 else { throw Self.dwarfError("dwarf_next_unit") }
        // Invariant: the walk moves forward (a corrupt length cannot loop).
        guard next > cursor.offset else { return nil }
        var die = DIE()
        guard dwarf_offdie(dwarf, cursor.offset + UInt64(headerSize), &die.raw) != nil else { throw Self.dwarfError("dwarf_offdie") }
        cursor.offset = next
        return (die, Int(version), Int(addressSize))
    }

    /// The bytes of the one section named `name` in an executable or shared object read in
    /// place (`canShareImage`: neither compressed nor of the other byte order); nil if there is
    /// none, more than one, or it has no bytes in the file.
    func sectionBytes(named name: String, in image: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard canShareImage else { return nil }
        var ehdr = GElf_Ehdr()
        guard gelf_getehdr(elf, &ehdr) != nil, ehdr.e_type == UInt16(ET_EXEC) || ehdr.e_type == UInt16(ET_DYN) else { return nil }
        var namesIndex = 0
        guard elf_getshdrstrndx(elf, &namesIndex) == 0 else { return nil }
        var found: UnsafeRawBufferPointer?
        var section: OpaquePointer? = nil
        while let current = elf_nextscn(elf, section) {
            section = current
            var header = GElf_Shdr()
            guard gelf_getshdr(current, &header) != nil, let text = elf_strptr(elf, namesIndex, Int(header.sh_name)),
                  String(cString: text) == name else { continue }
            guard found == nil, header.sh_type != UInt32(SHT_NOBITS), header.sh_flags & UInt64(SHF_COMPRESSED) == 0,
                  let start = Int(exactly: header.sh_offset), let size = Int(exactly: header.sh_size),
                  start <= image.count, size <= image.count - start else { return nil }
            found = UnsafeRawBufferPointer(rebasing: image[start..<(start + size)])
        }
        return found
    }

    /// The unit's `DW_AT_stmt_list` as `dwarf_getsrclines` reads it (a section offset checked to
    /// lie inside `.debug_line`: `dwarf_formudata` does the same check for these forms), or nil.
    func statementList(of cu: inout DIE) -> UInt64? {
        var attribute = Dwarf_Attribute()
        guard dwarf_attr(&cu.raw, UInt32(DW_AT_stmt_list), &attribute) != nil,
              attribute.form == UInt32(DW_FORM_sec_offset) || attribute.form == UInt32(DW_FORM_data4)
                || attribute.form == UInt32(DW_FORM_data8) else { return nil }
        var value: Dwarf_Word = 0
        guard dwarf_formudata(&attribute, &value) == 0 else { return nil }
        return value
    }

    // MARK: line tables

    /// The unit's line table (`dwarf_getsrclines`), sorted by address by libdw.
    struct Lines {
        fileprivate let raw: OpaquePointer?
        let count: Int
    }

    func lines(of cu: inout DIE) throws(DWError) -> Lines {
        var lines: OpaquePointer?
        var count = 0
        guard dwarf_getsrclines(&cu.raw, &lines, &count) == 0 else { throw Self.dwarfError("dwarf_getsrclines") }
        return Lines(raw: lines, count: count)
    }

    /// Row `index` of `lines`: address, file index (into `files(of:)`), line, column, end of sequence.
    func row(_ index: Int, of lines: Lines) -> (address: UInt64, file: Int, line: Int32, column: Int32, endSequence: Bool)? {
        guard let line = dwarf_onesrcline(lines.raw, index) else { return nil }
        var address: Dwarf_Addr = 0
        var number: Int32 = 0
        var column: Int32 = 0
        var end = false
        var files: OpaquePointer?
        var file = 0
        guard dwarf_lineaddr(line, &address) == 0 else { return nil }
        _ = dwarf_lineno(line, &number)
        _ = dwarf_linecol(line, &column)
        _ = dwarf_lineendsequence(line, &end)
        if dwarf_line_file(line, &files, &file) != 0 { file = -1 }
        return (address, file, number, column, end)
    }

    /// The unit's file names (`dwarf_getsrcfiles` + `dwarf_filesrc`), as libdw joins them with
    /// their directory ("" for an entry libdw cannot name), and the table's directory 0
    /// (`dwarf_getsrcdirs`; before DWARF 5 libdw puts `DW_AT_comp_dir` there).
    func files(of cu: inout DIE) -> (names: [String], firstDirectory: String?) {
        var files: OpaquePointer?
        var count = 0
        guard dwarf_getsrcfiles(&cu.raw, &files, &count) == 0 else { return ([], nil) }
        var names: [String] = []
        names.reserveCapacity(min(count, 1 << 20))
        for index in 0..<count {
            if let name = dwarf_filesrc(files, index, nil, nil) { names.append(String(cString: name)) } else { names.append("") }
        }
        var directories: UnsafePointer<UnsafePointer<CChar>?>?
        var directoryCount = 0
        var first: String?
        if dwarf_getsrcdirs(files, &directories, &directoryCount) == 0, directoryCount > 0, let directories, let name = directories[0] {
            first = String(cString: name)
        }
        return (names, first)
    }

    // MARK: DIE tree

    /// `dwarf_child`: the first child, or nil.
    func child(of die: inout DIE) -> DIE? {
        var result = DIE()
        return dwarf_child(&die.raw, &result.raw) == 0 ? result : nil
    }

    /// `dwarf_siblingof`: the next sibling, or nil (also on error: the walk ends there).
    func sibling(of die: inout DIE) -> DIE? {
        var result = DIE()
        return dwarf_siblingof(&die.raw, &result.raw) == 0 ? result : nil
    }

    /// `dwarf_tag`.
    func tag(_ die: inout DIE) -> Int32 { dwarf_tag(&die.raw) }

    /// `dwarf_dieoffset`: the DIE's offset in `.debug_info`.
    func offset(_ die: inout DIE) -> UInt64 { dwarf_dieoffset(&die.raw) }

    /// The address ranges of a DIE (`dwarf_ranges`: `DW_AT_low_pc`/`high_pc` or `DW_AT_ranges`),
    /// appended to `ranges`. Returns false if the DIE has none.
    func appendRanges(of die: inout DIE, to ranges: inout [(UInt64, UInt64)]) -> Bool {
        var offset = 0
        var base: Dwarf_Addr = 0
        var start: Dwarf_Addr = 0
        var end: Dwarf_Addr = 0
        var found = false
        var guardCount = 0
        while true {
            offset = dwarf_ranges(&die.raw, offset, &base, &start, &end)
            if offset <= 0 { break }
            ranges.append((start, end))
            found = true
            guardCount += 1
            if guardCount > 1 << 20 { break }  // a corrupt range list cannot make us loop forever
        }
        return found
    }

    /// The offset of the DIE named by `DW_AT_abstract_origin`, if any.
    func abstractOrigin(of die: inout DIE) -> UInt64? {
        var attribute = Dwarf_Attribute()
        guard dwarf_attr(&die.raw, UInt32(DW_AT_abstract_origin), &attribute) != nil else { return nil }
        var target = Dwarf_Die()
        guard dwarf_formref_die(&attribute, &target) != nil else { return nil }
        return dwarf_dieoffset(&target)
    }

    /// The name a symbolizer shows: `DW_AT_linkage_name` (or `DW_AT_MIPS_linkage_name`) if
    /// present, else `DW_AT_name`, following `DW_AT_abstract_origin` and `DW_AT_specification`
    /// (`dwarf_attr_integrate`).
    func linkageOrName(of die: inout DIE) -> String? {
        var attribute = Dwarf_Attribute()
        for name in [DW_AT_linkage_name, DW_AT_MIPS_linkage_name] {
            if dwarf_attr_integrate(&die.raw, UInt32(name), &attribute) != nil, let text = dwarf_formstring(&attribute) {
                return String(cString: text)
            }
        }
        if let text = dwarf_diename(&die.raw) { return String(cString: text) }
        return nil
    }

    // MARK: a function's attributes in one pass

    /// The attributes the subroutine walk reads from a function or inlined call, collected in
    /// one pass over the DIE (`dwarf_getattrs`). Asking libdw for each (`dwarf_ranges`,
    /// `dwarf_attr`, `dwarf_attr_integrate`) scans the DIE's attributes again every time: a C
    /// function's name alone took seven scans (two linkage names and the name, each looked for
    /// through `DW_AT_abstract_origin` and `DW_AT_specification` too), about 4,700 instructions.
    /// Each attribute is the first of its name, as `dwarf_attr` finds it; what the pass cannot
    /// answer as libdw would (another form, a name to look up elsewhere, a DIE libdw could not
    /// read) is left to the calls above, so the answers are theirs.
    struct SubroutineAttributes {
        fileprivate var lowPC = Dwarf_Attribute()
        fileprivate var highPC = Dwarf_Attribute()
        fileprivate var abstractOrigin = Dwarf_Attribute()
        fileprivate var linkageName = Dwarf_Attribute()
        fileprivate var mipsLinkageName = Dwarf_Attribute()
        fileprivate var name = Dwarf_Attribute()
        fileprivate var callFile = Dwarf_Attribute()
        fileprivate var callLine = Dwarf_Attribute()
        fileprivate var callColumn = Dwarf_Attribute()
        /// A bit per attribute found (`Bit`).
        fileprivate var found: UInt32 = 0
        /// Whether the pass read every attribute; if not, nothing above is used.
        fileprivate var isComplete = false

        fileprivate enum Bit {
            static let lowPC: UInt32 = 1 << 0
            static let highPC: UInt32 = 1 << 1
            static let ranges: UInt32 = 1 << 2
            static let abstractOrigin: UInt32 = 1 << 3
            static let specification: UInt32 = 1 << 4
            static let linkageName: UInt32 = 1 << 5
            static let mipsLinkageName: UInt32 = 1 << 6
            static let name: UInt32 = 1 << 7
            static let callFile: UInt32 = 1 << 8
            static let callLine: UInt32 = 1 << 9
            static let callColumn: UInt32 = 1 << 10
        }

        fileprivate func has(_ bit: UInt32) -> Bool { found & bit != 0 }

        /// Keeps `attribute` if it is one of ours and the first of its name.
        fileprivate mutating func take(_ attribute: Dwarf_Attribute) {
            func keep(_ bit: UInt32, _ slot: inout Dwarf_Attribute) {
                guard found & bit == 0 else { return }
                found |= bit
                slot = attribute
            }
            switch attribute.code {
            case UInt32(DW_AT_low_pc): keep(Bit.lowPC, &lowPC)
            case UInt32(DW_AT_high_pc): keep(Bit.highPC, &highPC)
            case UInt32(DW_AT_ranges): found |= Bit.ranges
            case UInt32(DW_AT_abstract_origin): keep(Bit.abstractOrigin, &abstractOrigin)
            case UInt32(DW_AT_specification): found |= Bit.specification
            case UInt32(DW_AT_linkage_name): keep(Bit.linkageName, &linkageName)
            case UInt32(DW_AT_MIPS_linkage_name): keep(Bit.mipsLinkageName, &mipsLinkageName)
            case UInt32(DW_AT_name): keep(Bit.name, &name)
            case UInt32(DW_AT_call_file): keep(Bit.callFile, &callFile)
            case UInt32(DW_AT_call_line): keep(Bit.callLine, &callLine)
            case UInt32(DW_AT_call_column): keep(Bit.callColumn, &callColumn)
            default: break
            }
        }
    }

    /// The attributes of `die` the subroutine walk reads, in one `dwarf_getattrs` pass.
    func subroutineAttributes(of die: inout DIE) -> SubroutineAttributes {
        var attributes = SubroutineAttributes()
        let end = withUnsafeMutablePointer(to: &attributes) { pointer in
            dwarf_getattrs(&die.raw, { attribute, context in
                guard let attribute, let context else { return Int32(DWARF_CB_ABORT) }
                context.assumingMemoryBound(to: SubroutineAttributes.self).pointee.take(attribute.pointee)
                return Int32(DWARF_CB_OK)
            }, pointer, 0)
        }
        // 1: the end of the attributes was reached (every other value is an error or an abort).
        attributes.isComplete = end == 1
        return attributes
    }

    /// `appendRanges(of:to:)` with the attributes already read: `DW_AT_low_pc` and a
    /// `DW_AT_high_pc` that is an address or an unsigned offset from it give the one range
    /// `dwarf_ranges` would (it asks `dwarf_highpc` and `dwarf_lowpc` first); neither
    /// `DW_AT_high_pc` nor `DW_AT_ranges` gives none, as there; anything else is `dwarf_ranges`'.
    func appendRanges(of die: inout DIE, _ attributes: inout SubroutineAttributes, to ranges: inout [(UInt64, UInt64)]) -> Bool {
        typealias Bit = SubroutineAttributes.Bit
        if attributes.isComplete {
            if !attributes.has(Bit.highPC) && !attributes.has(Bit.ranges) { return false }
            if attributes.has(Bit.highPC) && attributes.has(Bit.lowPC) {
                var low: Dwarf_Addr = 0
                var high: Dwarf_Addr = 0
                var offset: Dwarf_Word = 0
                let highForm = attributes.highPC.form
                let isOffset = highForm == UInt32(DW_FORM_data1) || highForm == UInt32(DW_FORM_data2) || highForm == UInt32(DW_FORM_data4)
                    || highForm == UInt32(DW_FORM_data8) || highForm == UInt32(DW_FORM_udata)
                if dwarf_formaddr(&attributes.lowPC, &low) == 0 {
                    if highForm == UInt32(DW_FORM_addr), dwarf_formaddr(&attributes.highPC, &high) == 0 {
                        ranges.append((low, high))
                        return true
                    }
                    if isOffset, dwarf_formudata(&attributes.highPC, &offset) == 0 {
                        ranges.append((low, low &+ offset))
                        return true
                    }
                }
            }
        }
        return appendRanges(of: &die, to: &ranges)
    }

    /// `abstractOrigin(of:)` with the attributes already read.
    func abstractOrigin(of die: inout DIE, _ attributes: inout SubroutineAttributes) -> UInt64? {
        guard attributes.isComplete else { return abstractOrigin(of: &die) }
        guard attributes.has(SubroutineAttributes.Bit.abstractOrigin) else { return nil }
        var target = Dwarf_Die()
        guard dwarf_formref_die(&attributes.abstractOrigin, &target) != nil else { return nil }
        return dwarf_dieoffset(&target)
    }

    /// `linkageOrName(of:)` with the attributes already read, when the DIE's own attributes
    /// decide it: its own linkage name, or, with no `DW_AT_abstract_origin` or
    /// `DW_AT_specification` to follow, its own MIPS linkage name or name (or none).
    func linkageOrName(of die: inout DIE, _ attributes: inout SubroutineAttributes) -> String? {
        typealias Bit = SubroutineAttributes.Bit
        guard attributes.isComplete else { return linkageOrName(of: &die) }
        if attributes.has(Bit.linkageName) {
            if let text = dwarf_formstring(&attributes.linkageName) { return String(cString: text) }
        } else if !attributes.has(Bit.abstractOrigin) && !attributes.has(Bit.specification) {
            if attributes.has(Bit.mipsLinkageName) {
                if let text = dwarf_formstring(&attributes.mipsLinkageName) { return String(cString: text) }
            } else if attributes.has(Bit.name) {
                return dwarf_formstring(&attributes.name).map { String(cString: $0) }
            } else {
                return nil
            }
        }
        return linkageOrName(of: &die)
    }

    /// An inlined call's `DW_AT_call_file`, `DW_AT_call_line` and `DW_AT_call_column`
    /// (`unsigned(_:of:)` of each) with the attributes already read.
    func callSite(of die: inout DIE, _ attributes: inout SubroutineAttributes) -> (file: UInt64?, line: UInt64?, column: UInt64?) {
        typealias Bit = SubroutineAttributes.Bit
        guard attributes.isComplete else {
            return (unsigned(Attribute.callFile, of: &die), unsigned(Attribute.callLine, of: &die), unsigned(Attribute.callColumn, of: &die))
        }
        func value(_ present: Bool, _ attribute: inout Dwarf_Attribute) -> UInt64? {
            guard present else { return nil }
            var value: Dwarf_Word = 0
            return dwarf_formudata(&attribute, &value) == 0 ? value : nil
        }
        let hasFile = attributes.has(Bit.callFile), hasLine = attributes.has(Bit.callLine), hasColumn = attributes.has(Bit.callColumn)
        return (value(hasFile, &attributes.callFile), value(hasLine, &attributes.callLine), value(hasColumn, &attributes.callColumn))
    }

    /// An unsigned constant attribute (`dwarf_attr` + `dwarf_formudata`).
    func unsigned(_ attributeName: Int32, of die: inout DIE) -> UInt64? {
        var attribute = Dwarf_Attribute()
        guard dwarf_attr(&die.raw, UInt32(attributeName), &attribute) != nil else { return nil }
        var value: Dwarf_Word = 0
        guard dwarf_formudata(&attribute, &value) == 0 else { return nil }
        return value
    }

    /// A string attribute of the DIE itself (`dwarf_attr` + `dwarf_formstring`).
    func string(_ attributeName: Int32, of die: inout DIE) -> String? {
        var attribute = Dwarf_Attribute()
        guard dwarf_attr(&die.raw, UInt32(attributeName), &attribute) != nil, let text = dwarf_formstring(&attribute) else { return nil }
        return String(cString: text)
    }

    // MARK: constants (DW_TAG_*, DW_AT_*)

    enum Tag {
        static let compileUnit = Int32(DW_TAG_compile_unit)
        static let partialUnit = Int32(DW_TAG_partial_unit)
        static let subprogram = Int32(DW_TAG_subprogram)
        static let inlinedSubroutine = Int32(DW_TAG_inlined_subroutine)
        static let lexicalBlock = Int32(DW_TAG_lexical_block)
        static let namespace = Int32(DW_TAG_namespace)
        static let module = Int32(DW_TAG_module)
        static let tryBlock = Int32(DW_TAG_try_block)
        static let catchBlock = Int32(DW_TAG_catch_block)
        static let structure = Int32(DW_TAG_structure_type)
        static let classType = Int32(DW_TAG_class_type)
        static let union = Int32(DW_TAG_union_type)
    }

    enum Attribute {
        static let callFile = Int32(DW_AT_call_file)
        static let callLine = Int32(DW_AT_call_line)
        static let callColumn = Int32(DW_AT_call_column)
        static let name = Int32(DW_AT_name)
        static let language = Int32(DW_AT_language)
        static let compilationDirectory = Int32(DW_AT_comp_dir)
    }

    // MARK: errors

    fileprivate static func dwarfError(_ operation: String) -> DWError {
        let code = dwarf_errno()
        let message = dwarf_errmsg(code).map { String(cString: $0) } ?? "unknown libdw error"
        return DWError(library: .libdw, code: code, message: message, operation: operation)
    }

    private static func elfError(_ operation: String) -> DWError {
        let code = elf_errno()
        let message = elf_errmsg(code).map { String(cString: $0) } ?? "unknown libelf error"
        return DWError(library: .libelf, code: code, message: message, operation: operation)
    }
}
