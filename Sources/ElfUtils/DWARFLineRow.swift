/// One row of a unit's line table.
public struct DWARFLineRow: Sendable, Equatable {
    public var address: UInt64
    /// Index into `DWARFUnit.files`, or -1 when libdw could not say.
    public var file: Int32
    public var line: UInt32
    /// 0 when the producer gave no column.
    public var column: UInt32
    /// `DW_LNE_end_sequence`: the address is one past the sequence's last byte.
    public var isEndSequence: Bool
}
