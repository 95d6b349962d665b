import BinaryReading
import System

/// One program header (`Elf32_Phdr` / `Elf64_Phdr`).
public struct ELFSegment: Sendable, Equatable {
    /// `p_type`: `PT_LOAD` 1, `PT_DYNAMIC` 2, `PT_NOTE` 4.
    public var type: UInt32
    /// `p_flags`: `PF_X` 1, `PF_W` 2, `PF_R` 4.
    public var flags: UInt32
    public var fileOffset: UInt64
    public var virtualAddress: UInt64
    public var fileSize: UInt64
    public var memorySize: UInt64

    public static let loadType: UInt32 = 1
    public static let noteType: UInt32 = 4
}
