import BinaryReading

// A minimal Mach-O reader: headers, fat archives and the load-command walk, enough to find
// a binary's code signature. It lives in ObjectFile so the symbolication work (ELF reader,
// Mach-O sections, symbols and UUIDs) extends this one reader rather than writing a second.

public enum MachOFile {
    /// `MH_MAGIC_64`, `MH_MAGIC`, as read little-endian (and their byte-swapped forms).
    static let magic64: UInt32 = 0xfeed_facf, magic32: UInt32 = 0xfeed_face
    /// `FAT_MAGIC`, `FAT_MAGIC_64` (big-endian on disk).
    static let fatMagic: UInt32 = 0xcafe_babe, fatMagic64: UInt32 = 0xcafe_babf
    /// More slices than any real fat file has; bounds the allocation a header can ask for.
    static let maximumSlices = 64

    /// True when `bytes` start with a Mach-O or fat magic.
    public static func isMachO(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        let le = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        let be = le.byteSwapped
        return [magic64, magic32].contains(le) || [magic64, magic32, fatMagic, fatMagic64].contains(be)
    }

    /// Every image in the file: one for a thin file, one per slice of a fat file.
    public static func images(_ bytes: [UInt8]) throws(DecodeError) -> [MachOSlice] {
        try bytes.withUnsafeBytes { raw in Result { () throws(DecodeError) -> [MachOSlice] in try images(raw) } }.get()
    }

    /// `images(_:)` over bytes already in memory (a mapped file): nothing is copied.
    public static func images(_ raw: UnsafeRawBufferPointer) throws(DecodeError) -> [MachOSlice] {
        var cursor = ByteCursor(raw, section: "Mach-O header")
        let magic = try cursor.read(UInt32.self, endian: .big)
        guard magic == fatMagic || magic == fatMagic64 else {
            return [try image(raw, at: 0, size: raw.count)]
        }
        // fat_header and fat_arch entries are big-endian whatever the slices are.
        let count = try cursor.read(UInt32.self, endian: .big)
        guard count > 0, count <= maximumSlices else {
            throw cursor.error("fat header declares \(count) architectures (expected 1 to \(maximumSlices))", at: 4)
        }
        var images: [MachOSlice] = []
        for _ in 0..<count {
            let entry = cursor.offset
            _ = try cursor.read(UInt32.self, endian: .big)  // cputype (the slice's header repeats it)
            _ = try cursor.read(UInt32.self, endian: .big)  // cpusubtype
            let offset: UInt64, size: UInt64
            if magic == fatMagic64 {
                offset = try cursor.read(UInt64.self, endian: .big)
                size = try cursor.read(UInt64.self, endian: .big)
                try cursor.skip(8)  // align, reserved
            } else {
                offset = UInt64(try cursor.read(UInt32.self, endian: .big))
                size = UInt64(try cursor.read(UInt32.self, endian: .big))
                try cursor.skip(4)  // align
            }
            // The slice must lie inside the file.
            guard let start = Int(exactly: offset), let length = Int(exactly: size),
                  start <= raw.count, length <= raw.count - start else {
                throw cursor.error("fat slice at \(offset) of \(size) bytes lies outside the \(raw.count)-byte file", at: entry)
            }
            images.append(try image(UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)]), at: start, size: length))
        }
        return images
    }

    /// Reads one image's header and load commands; `raw` is the image, `base` its file offset.
    static func image(_ raw: UnsafeRawBufferPointer, at base: Int, size: Int) throws(DecodeError) -> MachOSlice {
        var cursor = ByteCursor(raw, section: "Mach-O header", baseOffset: base)
        let magicLE = try cursor.read(UInt32.self, endian: .little)
        let endian: Endianness
        let is64: Bool
        switch magicLE {
        case magic64: (endian, is64) = (.little, true)
        case magic32: (endian, is64) = (.little, false)
        case magic64.byteSwapped: (endian, is64) = (.big, true)
        case magic32.byteSwapped: (endian, is64) = (.big, false)
        default:
            throw cursor.error("not a Mach-O file (magic 0x\(String(magicLE, radix: 16)))", at: 0)
        }
        let cpuType = try cursor.read(UInt32.self, endian: endian)
        _ = try cursor.read(UInt32.self, endian: endian)  // cpusubtype
        let fileType = try cursor.read(UInt32.self, endian: endian)
        let commandCount = try cursor.read(UInt32.self, endian: endian)
        let commandsSize = try cursor.read(UInt32.self, endian: endian)
        _ = try cursor.read(UInt32.self, endian: endian)  // flags
        if is64 { try cursor.skip(4) }  // reserved
        // The load commands occupy sizeofcmds bytes right after the header.
        guard let area = Int(exactly: commandsSize), area <= cursor.remaining else {
            throw cursor.error("load commands (\(commandsSize) bytes) run past the end of the image", at: 20)
        }
        var commands = try cursor.subCursor(count: area, section: "Mach-O load commands")
        var list: [MachOLoadCommand] = []
        list.reserveCapacity(min(Int(commandCount), area / 8))
        for index in 0..<commandCount {
            let start = commands.position
            let command = try commands.read(UInt32.self, endian: endian)
            let commandSize = try commands.read(UInt32.self, endian: endian)
            // Each command holds at least its 8-byte header and fits in the area.
            guard commandSize >= 8, Int(commandSize) - 8 <= commands.remaining else {
                throw commands.error("load command \(index) (cmd 0x\(String(command, radix: 16))) has size \(commandSize), outside 8...\(commands.remaining + 8)", at: start)
            }
            var body = try commands.subCursor(count: Int(commandSize) - 8)
            var linkEdit: (UInt32, UInt32)?
            if command == MachOLoadCommand.codeSignature {
                let dataOffset = try body.read(UInt32.self, endian: endian)
                let dataSize = try body.read(UInt32.self, endian: endian)
                // The signature must lie inside the image.
                guard UInt64(dataOffset) + UInt64(dataSize) <= UInt64(size) else {
                    throw body.error("LC_CODE_SIGNATURE range \(dataOffset)+\(dataSize) lies outside the \(size)-byte image", at: 0)
                }
                linkEdit = (dataOffset, dataSize)
            }
            list.append(MachOLoadCommand(command: command, offset: commands.baseOffset + start, size: Int(commandSize), linkEditData: linkEdit))
        }
        return MachOSlice(cpuType: cpuType, fileType: fileType, is64Bit: is64, offset: base, size: size, loadCommands: list)
    }
}
