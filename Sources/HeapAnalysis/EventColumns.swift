/// Where the columns of a version-5 events record lie in the recording's bytes (FORMAT.md,
/// "Events"): column `c` is `bounds[c]..<bounds[c + 1]`.
struct EventColumns: Sendable {
    /// DKH_EVENT_COLUMNS absolute offsets, then the end of the last column.
    var bounds: [Int]
}
