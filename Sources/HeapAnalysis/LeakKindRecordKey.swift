/// Which scan and kind a LEAK_KIND record's addresses belong to, while the reader collects
/// them until the scan's SCAN record.
struct LeakKindRecordKey: Hashable, Sendable {
    var seq: UInt64
    /// `dkh_leak_kind`.
    var kind: UInt32
}
