import BinaryReading
import System
import ObjectFile
import Symbolication

/// Reads just enough of a file to say what it is: magic, then build-id or UUIDs.
enum ObjectIdentity {
    static func read(path: String) -> [ImageCatalog.Entry] {
        guard hasObjectMagic(path), let file = try? MappedFile(path: path), file.bytes.count <= ImageCatalog.maximumFileSize else { return [] }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if ELFFile.hasMagic(file.bytes) {
            guard let elf = try? ELFFile(file), let buildID = try? elf.buildID(), !buildID.isEmpty,
                  elf.header.type != ELFHeader.relocatable else { return [] }
            let hasCode = elf.sections.contains { $0.isExecutable && $0.hasFileContents && $0.size > 0 }
            return [.init(path: path, identifier: hexString(buildID), architecture: nil, kind: hasCode ? .binary : .debugSymbols, name: name)]
        }
        guard let slices = try? MachOFile.images(file.bytes) else { return [] }
        let isDSYM = path.contains(".dSYM/Contents/Resources/DWARF/")
        var result: [ImageCatalog.Entry] = []
        for slice in slices {
            guard let contents = try? MachOContents.read(slice, bytes: slice.bytes(in: file.bytes)), let uuid = contents.uuid else { continue }
            // MH_DSYM (0xa) files and dSYM bundle contents hold debug information only.
            let kind: ImageCatalog.Entry.Kind = isDSYM || slice.fileType == 0xa ? .debugSymbols : .binary
            result.append(.init(path: path, identifier: hexString(uuid), architecture: slice.architecture, kind: kind, name: name))
        }
        return result
    }

    /// The first four bytes are an ELF or Mach-O (thin or fat) magic: most files under a
    /// search path are neither, and are skipped without being mapped.
    static func hasObjectMagic(_ path: String) -> Bool {
        // Regular files only: a crash log is untrusted and may name a FIFO or a device
        // (`/dev/tty`), whose open or read would block.
        guard DirectoryWalk.type(of: path) == .file, let prefix = try? FileIO.readPrefix(path, count: 4), prefix.count == 4 else { return false }
        return prefix == [0x7f, 0x45, 0x4c, 0x46] || MachOFile.isMachO(prefix)
    }
}
