import System
import ObjectFile

/// The sections of one binary (ELF, or one Mach-O slice), to say what an address in it
/// holds: code, a C string, a selector name, other data. Register decoding reads strings
/// from here, since a crash log carries no memory.
public final class BinarySections: @unchecked Sendable {
    public enum Kind: Sendable, Equatable {
        case code
        /// `__TEXT,__objc_methname`: selector names.
        case selectorName
        /// `__TEXT,__cstring`, `__objc_classname`, `__objc_methtype`, `.rodata.str*`.
        case cString
        /// `.rodata`, `__TEXT,__const`: constants that may be strings.
        case readOnlyData
        /// Writable data (`__DATA*`, `.data`, `.bss`).
        case data
        case other
    }

    public struct Section: Sendable {
        /// `__TEXT,__cstring` or `.rodata`.
        public var name: String
        public var kind: Kind
        public var address: UInt64
        public var size: UInt64
        /// Where the section's bytes are in the file (nil for zero-fill sections).
        var fileRange: Range<Int>?
    }

    public let path: String
    public let sections: [Section]
    private let file: MappedFile

    /// Longest string read from a binary (selector names and messages are far shorter).
    static let maximumStringLength = 4096

    /// Opens `path`; nil if it is no ELF or Mach-O file (or has no slice `architecture`).
    public init?(path: String, architecture: String?) {
        guard let file = try? MappedFile(path: path) else { return nil }
        self.file = file
        self.path = path
        if ELFFile.hasMagic(file.bytes) {
            guard let elf = try? ELFFile(file) else { return nil }
            sections = elf.sections.filter(\.isAllocated).map { section in
                var range: Range<Int>?
                if section.hasFileContents, section.compression == nil, let start = Int(exactly: section.fileOffset),
                   let count = Int(exactly: section.size), start <= file.bytes.count, count <= file.bytes.count - start {
                    range = start..<(start + count)
                }
                return Section(name: section.name, kind: Self.elfKind(section), address: section.address, size: section.size, fileRange: range)
            }
            return
        }
        guard let slices = try? MachOFile.images(file.bytes) else { return nil }
        // The slice asked for; a thin file's only slice when nothing is asked.
        let candidates = slices.filter { architecture.map($0.matches(architecture:)) ?? true }
        guard candidates.count == 1, let slice = candidates.first,
              let contents = try? MachOContents.read(slice, bytes: slice.bytes(in: file.bytes)) else { return nil }
        sections = contents.sections.map { section in
            var range: Range<Int>?
            // Zero-fill sections (type 1, 0xc) have no bytes in the file.
            let type = section.flags & 0xff
            if section.offset != 0, type != 1, type != 0xc, let count = Int(exactly: section.size),
               Int(section.offset) <= slice.size, count <= slice.size - Int(section.offset) {
                let start = slice.offset + Int(section.offset)
                range = start..<(start + count)
            }
            return Section(name: "\(section.segment),\(section.name)", kind: Self.machOKind(section), address: section.address,
                           size: section.size, fileRange: range)
        }
    }

    /// The section holding `fileAddress`.
    public func section(containing fileAddress: UInt64) -> Section? {
        sections.first { fileAddress >= $0.address && fileAddress - $0.address < $0.size }
    }

    /// The NUL-terminated string at `fileAddress`, if the address is in a section with file
    /// contents and the bytes up to the NUL are printable UTF-8.
    public func cString(at fileAddress: UInt64) -> String? {
        guard let section = section(containing: fileAddress), let range = section.fileRange else { return nil }
        let start = range.lowerBound + Int(fileAddress - section.address)
        let end = min(range.upperBound, start + Self.maximumStringLength)
        guard start < end else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: file.bytes[start..<end])
        guard let nul = bytes.firstIndex(of: 0), nul > 0 else { return nil }
        let text = bytes[..<nul]
        // Control bytes other than tab and newline mean this is not text.
        guard !text.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0a }) else { return nil }
        let string = String(decoding: text, as: UTF8.self)
        return string.unicodeScalars.contains("\u{FFFD}") ? nil : string
    }

    private static func elfKind(_ section: ELFSection) -> Kind {
        if section.isExecutable { return .code }
        if section.name.hasPrefix(".rodata.str") { return .cString }
        if section.name.hasPrefix(".rodata") { return .readOnlyData }
        if section.flags & 0x1 != 0 { return .data }  // SHF_WRITE
        return .other
    }

    private static func machOKind(_ section: MachOContents.Section) -> Kind {
        if section.isCode { return .code }
        switch (section.segment, section.name) {
        case ("__TEXT", "__objc_methname"): return .selectorName
        case ("__TEXT", "__cstring"), ("__TEXT", "__objc_classname"), ("__TEXT", "__objc_methtype"), ("__TEXT", "__oslogstring"): return .cString
        case ("__TEXT", "__const"), ("__DATA_CONST", "__const"): return .readOnlyData
        default: return section.segment.hasPrefix("__DATA") ? .data : .other
        }
    }
}
