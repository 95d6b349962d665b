import BinaryReading

/// One load command: its `cmd`, where it is and, for `linkedit_data_command`s, the range.
public struct MachOLoadCommand: Sendable, Equatable {
    /// `LC_CODE_SIGNATURE`.
    public static let codeSignature: UInt32 = 0x1d

    public var command: UInt32
    /// Offset of the command in the file.
    public var offset: Int
    public var size: Int
    /// `dataoff`/`datasize` of a `linkedit_data_command` (LC_CODE_SIGNATURE and kin).
    public var linkEditData: (offset: UInt32, size: UInt32)?

    public static func == (a: MachOLoadCommand, b: MachOLoadCommand) -> Bool {
        a.command == b.command && a.offset == b.offset && a.size == b.size
            && a.linkEditData?.offset == b.linkEditData?.offset && a.linkEditData?.size == b.linkEditData?.size
    }
}
