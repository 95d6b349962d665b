import BinaryReading

/// One architecture's image in a Mach-O file: the whole file when it is thin, one `fat_arch`
/// entry of a fat file (`MachOFile.images` lists them).
public struct MachOSlice: Sendable, Equatable {
    /// `cputype` from the header (e.g. 0x0100000c for arm64).
    public var cpuType: UInt32
    /// `filetype` (2 executable, 6 dylib, 8 bundle…).
    public var fileType: UInt32
    public var is64Bit: Bool
    /// Offset of the image in the file (non-zero for slices of a fat file).
    public var offset: Int
    public var size: Int
    public var loadCommands: [MachOLoadCommand]

    /// `LC_CODE_SIGNATURE`: where the signature (a SuperBlob) lies, relative to the image.
    public var codeSignature: (offset: Int, size: Int)? {
        guard let command = loadCommands.first(where: { $0.command == MachOLoadCommand.codeSignature }),
              let data = command.linkEditData else { return nil }
        return (Int(data.offset), Int(data.size))
    }

    /// A readable architecture name for the common CPU types.
    public var architecture: String {
        switch cpuType {
        case 0x0100_000c: "arm64"
        case 0x0000_000c: "arm"
        case 0x0100_0007: "x86_64"
        case 0x0000_0007: "i386"
        case 0x0200_000c: "arm64_32"
        default: "cputype 0x\(String(cpuType, radix: 16))"
        }
    }

    /// Whether this is the slice `--arch name` asks for: `arm64e` shares arm64's CPU type
    /// (its subtype differs) and `armv7`, `armv7s`, `armv7k` share `arm`'s.
    public func matches(architecture name: String) -> Bool {
        switch name {
        case "arm64e", "arm64": architecture == "arm64"
        case "armv7", "armv7s", "armv7k", "arm": architecture == "arm"
        default: architecture == name
        }
    }

    /// This image's bytes within `file`, the buffer `MachOFile.images` read it from (which
    /// checked that the slice lies inside); empty for any other, shorter buffer.
    public func bytes(in file: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard offset >= 0, size >= 0, offset <= file.count, size <= file.count - offset else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: file[offset..<(offset + size)])
    }

    /// The byte order of the image's header; `bytes` must be this image's bytes.
    func endianness(in bytes: UnsafeRawBufferPointer) throws(DecodeError) -> Endianness {
        var header = ByteCursor(bytes, section: "Mach-O header", baseOffset: offset)
        let magic = try header.read(UInt32.self, endian: .little)
        return (magic == MachOFile.magic64 || magic == MachOFile.magic32) ? .little : .big
    }

    /// Calls `body` with each load command and a cursor over its body (past `cmd` and
    /// `cmdsize`); `bytes` must be this image's bytes. Commands outside them are skipped.
    func forEachCommand(in bytes: UnsafeRawBufferPointer,
                        _ body: (MachOLoadCommand, inout ByteCursor) throws(DecodeError) -> Void) throws(DecodeError) {
        for command in loadCommands {
            let relative = command.offset - offset
            guard relative >= 0, relative <= bytes.count, command.size <= bytes.count - relative else { continue }
            var cursor = ByteCursor(UnsafeRawBufferPointer(rebasing: bytes[relative..<(relative + command.size)]),
                                    section: "load command 0x\(String(command.command, radix: 16))", baseOffset: command.offset)
            try cursor.skip(8)
            try body(command, &cursor)
        }
    }

    public static func == (a: MachOSlice, b: MachOSlice) -> Bool {
        a.cpuType == b.cpuType && a.fileType == b.fileType && a.offset == b.offset && a.size == b.size && a.loadCommands == b.loadCommands
    }
}
