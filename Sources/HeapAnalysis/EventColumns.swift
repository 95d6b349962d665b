/// Where the columns of a version-5 events record lie in the recording's bytes (FORMAT.md,
/// "Events"): column `c` is `starts[c]..<starts[c + 1]`, the last ends at `end`.
struct EventColumns: Sendable {
    /// DKH_EVENT_COLUMNS absolute offsets, then the end of the last column.
    var bounds: [Int]
}
