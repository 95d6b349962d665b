/// A function or inlined call with code: `DW_TAG_subprogram` (depth 0) or
/// `DW_TAG_inlined_subroutine` (depth 1 inside a function, 2 inside that, …).
public struct DWARFSubroutine: Sendable, Equatable {
    /// Linkage (mangled) name if the DWARF has one, else `DW_AT_name`; nil if neither.
    public var name: String?
    /// Nesting among subroutines: 0 for a function, n for a call inlined n levels deep.
    public var depth: Int
    /// The subroutine's address ranges: indices into `DWARFUnit.ranges`.
    public var ranges: Range<Int>
    /// For an inlined call: where it was called from (`DW_AT_call_file` as an index into
    /// `DWARFUnit.files`, `DW_AT_call_line`, `DW_AT_call_column`); nil/0 for functions.
    public var callFile: Int?
    public var callLine: UInt32
    public var callColumn: UInt32
}
