/// Writes a minimal ELF64 image that holds only DWARF sections (and the code ranges as
/// `SHT_NOBITS` sections), so DWARF from a Mach-O file or dSYM can be handed to libdw with
/// `elf_memory`: one DWARF reader for both formats instead of a second parser. Addresses in
/// a linked Mach-O's DWARF are final, so no relocation is needed.
public enum ELFDebugImageWriter {
    public struct Section {
        public var name: String
        public var bytes: UnsafeRawBufferPointer
        public init(name: String, bytes: UnsafeRawBufferPointer) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// `EM_X86_64`, `EM_AARCH64`, `EM_386`, `EM_ARM`.
    public static func machine(forMachOCPUType cpuType: UInt32) -> UInt16 {
        switch cpuType {
        case 0x0100_0007: 62
        case 0x0100_000c, 0x0200_000c: 183
        case 0x0000_0007: 3
        case 0x0000_000c: 40
        default: 0
        }
    }

    /// The image bytes: header, section data, `.shstrtab`, section headers (little-endian).
    public static func image(machine: UInt16, sections: [Section], code: [(name: String, address: UInt64, size: UInt64)]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        var names: [UInt8] = [0]
        func nameOffset(_ name: String) -> UInt32 {
            let offset = UInt32(names.count)
            names.append(contentsOf: name.utf8)
            names.append(0)
            return offset
        }
        // (name offset, type, flags, address, file offset, size)
        var headers: [(UInt32, UInt32, UInt64, UInt64, UInt64, UInt64)] = [(0, 0, 0, 0, 0, 0)]
        for section in sections {
            while out.count % 8 != 0 { out.append(0) }
            headers.append((nameOffset(section.name), 1, 0, 0, UInt64(out.count), UInt64(section.bytes.count)))
            out.append(contentsOf: section.bytes)
        }
        for range in code {
            headers.append((nameOffset(range.name), 8, 0x6, range.address, UInt64(out.count), range.size))  // SHT_NOBITS, ALLOC|EXECINSTR
        }
        let shstrtabName = nameOffset(".shstrtab")
        headers.append((shstrtabName, 3, 0, 0, UInt64(out.count), UInt64(names.count)))
        out.append(contentsOf: names)
        while out.count % 8 != 0 { out.append(0) }
        let sectionHeaderOffset = UInt64(out.count)

        func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { for (i, byte) in $0.enumerated() { out[offset + i] = byte } }
        }
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
        }
        for header in headers {
            append(header.0); append(header.1); append(header.2); append(header.3)
            append(header.4); append(header.5); append(UInt32(0)); append(UInt32(0))
            append(UInt64(1)); append(UInt64(0))
        }
        out[0] = 0x7f; out[1] = 0x45; out[2] = 0x4c; out[3] = 0x46
        out[4] = 2; out[5] = 1; out[6] = 1  // ELFCLASS64, little-endian, EV_CURRENT
        put(UInt16(2), at: 16)  // ET_EXEC
        put(machine, at: 18)
        put(UInt32(1), at: 20)
        put(sectionHeaderOffset, at: 40)
        put(UInt16(64), at: 52)  // e_ehsize
        put(UInt16(64), at: 58)  // e_shentsize
        put(UInt16(headers.count), at: 60)
        put(UInt16(headers.count - 1), at: 62)  // e_shstrndx
        return out
    }
}
