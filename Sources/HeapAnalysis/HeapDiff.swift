import OrderedCollections
import JSONWriter

/// `devkit heapdiff A B`: how the blocks alive at the end of two recordings of the same
/// program differ, per group.
public struct HeapDiff: Sendable {
    public struct Row: Sendable, Equatable {
        public var key: String
        public var before: HeapGroup
        public var after: HeapGroup
        public var countDelta: Int { after.count - before.count }
        public var bytesDelta: Int64 { Int64(bitPattern: after.bytes &- before.bytes) }
    }

    public var groupKey: HeapGroupKey
    public var before: (count: Int, bytes: UInt64)
    public var after: (count: Int, bytes: UInt64)
    /// Groups that changed, largest growth first, then largest shrinkage.
    public var rows: [Row]

    public init(before a: (HeapTimeline, HeapGrouper), after b: (HeapTimeline, HeapGrouper)) {
        groupKey = a.1.key
        let aliveA = a.0.blocks.filter(\.isAliveAtEnd), aliveB = b.0.blocks.filter(\.isAliveAtEnd)
        before = (aliveA.count, aliveA.reduce(0) { $0 &+ $1.size })
        after = (aliveB.count, aliveB.reduce(0) { $0 &+ $1.size })
        var merged: OrderedDictionary<String, Row> = [:]
        for group in a.1.groups(aliveA) {
            merged[group.key] = Row(key: group.key, before: group, after: HeapGroup(key: group.key, count: 0, bytes: 0))
        }
        for group in b.1.groups(aliveB) {
            merged[group.key, default: Row(key: group.key, before: HeapGroup(key: group.key, count: 0, bytes: 0),
                                            after: group)].after = group
        }
        rows = merged.values.filter { $0.bytesDelta != 0 || $0.countDelta != 0 }
            .sorted { ($0.bytesDelta, $0.countDelta, $1.key) > ($1.bytesDelta, $1.countDelta, $0.key) }
    }

    public var textReport: String {
        var out = "alive at end: \(before.count) blocks, \(formatBytes(before.bytes)) → "
        out += "\(after.count) blocks, \(formatBytes(after.bytes)) (\(formatSignedBytes(Int64(bitPattern: after.bytes &- before.bytes))))\n"
        guard !rows.isEmpty else { return out + "no differences by \(groupKey.rawValue)\n" }
        var table = [["bytes", "blocks", "before", "after", groupKey.rawValue]]
        for row in rows {
            table.append([formatSignedBytes(row.bytesDelta), (row.countDelta >= 0 ? "+" : "") + String(row.countDelta),
                          formatBytes(row.before.bytes), formatBytes(row.after.bytes), row.key])
        }
        return out + renderTable(table, rightAligned: [0, 1, 2, 3])
    }

    /// The diff as JSON (`devkit heapdiff --format json`).
    public var jsonValue: JSONValue {
        [
            "groupBy": .string(groupKey.rawValue),
            "before": ["count": .number(before.count), "bytes": .number(before.bytes)],
            "after": ["count": .number(after.count), "bytes": .number(after.bytes)],
            "changes": .array(rows.map { row in
                ["key": .string(row.key),
                 "countDelta": .number(row.countDelta),
                 "bytesDelta": .number(row.bytesDelta),
                 "before": HeapReport.json(row.before), "after": HeapReport.json(row.after)]
            }),
        ]
    }
}
