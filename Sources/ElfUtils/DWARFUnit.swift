/// What a compilation unit contributes to symbolication.
public struct DWARFUnit: Sendable {
    /// DWARF version of the unit header (2–5).
    public var version: Int
    /// The unit's `DW_AT_name`.
    public var name: String?
    /// The unit's `DW_AT_comp_dir`: relative file names are relative to it.
    public var compilationDirectory: String?
    /// File names of the unit's line table, joined with their directories by libdw.
    public var files: [String]
    /// The line table's directory 0 (DWARF 5: as the table has it; before: `DW_AT_comp_dir`).
    /// libdw leaves names relative when their directory is: one under directory 0 is already
    /// joined with what the unit's compilation directory is; one under another is not.
    public var firstDirectory: String?
    /// The line table: sequences in address order, each ending with its end-of-sequence row.
    /// Rows a sequence has at its own end address (zero-length, describing no code) are left out.
    public var lineRows: [DWARFLineRow]
    /// Functions and inlined calls in DIE order (a parent before its children).
    public var subroutines: [DWARFSubroutine]
    /// Address ranges `start..<end` of `subroutines`.
    public var ranges: [(start: UInt64, end: UInt64)]
}
