import BinaryReading
import System

/// One entry of a note section (`Elf_Nhdr`, name, descriptor).
struct ELFNote {
    var name: [UInt8]
    var type: UInt32
    var descriptor: [UInt8]

    /// `NT_GNU_BUILD_ID` (3) with owner "GNU".
    var isGNUBuildID: Bool { type == 3 && name == Array("GNU\0".utf8) }

    static func read(_ bytes: UnsafeRawBufferPointer, baseOffset: Int, endian: Endianness, section: String) throws(DecodeError) -> [ELFNote] {
        var cursor = ByteCursor(bytes, section: section, baseOffset: baseOffset)
        var notes: [ELFNote] = []
        while cursor.remaining >= 12 {
            let nameSize = Int(try cursor.read(UInt32.self, endian: endian))
            let descriptorSize = Int(try cursor.read(UInt32.self, endian: endian))
            let type = try cursor.read(UInt32.self, endian: endian)
            let name = Array(try cursor.readBytes(nameSize))
            try cursor.skip(min((4 - nameSize % 4) % 4, cursor.remaining))
            let descriptor = Array(try cursor.readBytes(descriptorSize))
            try cursor.skip(min((4 - descriptorSize % 4) % 4, cursor.remaining))
            notes.append(ELFNote(name: name, type: type, descriptor: descriptor))
        }
        return notes
    }
}
