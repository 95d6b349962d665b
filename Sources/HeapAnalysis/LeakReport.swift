import JSONWriter

/// `devkit heapdiff FILE --leaks`: each generation's blocks alive at the end, split by the
/// recorder's exit scan into leaked (nothing pointed to them: unreachable) and abandoned
/// (still reachable, never freed).
public struct LeakReport: Sendable {
    public struct Part: Sendable {
        public var count: Int
        public var bytes: UInt64
        /// Largest groups first, at most `top`.
        public var groups: [HeapGroup]
        public var omittedGroups: Int
    }

    public struct GenerationLeaks: Sendable {
        public var generation: HeapTimeline.Generation
        public var leaked: Part
        public var abandoned: Part
    }

    public var path: String
    public var pid: UInt32
    public var command: [String]
    public var end: RecordingEnd?
    public var scan: ExitScan
    public var groupKey: HeapGroupKey
    public var generations: [GenerationLeaks]
    /// Unreachable addresses the replay has no live block for (should be 0: the recorder's
    /// table and the events describe the same heap).
    public var unmatchedAddresses: Int

    /// The blocks alive at the end of `timeline`, split by the scan: (leaked, abandoned).
    public static func split(_ timeline: HeapTimeline, scan: ExitScan) -> (leaked: [HeapTimeline.Block], abandoned: [HeapTimeline.Block]) {
        var leaked: [HeapTimeline.Block] = [], abandoned: [HeapTimeline.Block] = []
        for block in timeline.blocks where block.isAliveAtEnd {
            if scan.unreachable.contains(block.address) { leaked.append(block) } else { abandoned.append(block) }
        }
        return (leaked, abandoned)
    }

    /// nil when the recording has no exit scan.
    public init?(recording: HeapRecording, timeline: HeapTimeline, grouper: HeapGrouper, top: Int) {
        guard let scan = recording.scan else { return nil }
        path = recording.path
        pid = recording.header.pid
        command = recording.command
        end = recording.end
        self.scan = scan
        groupKey = grouper.key
        let (leaked, abandoned) = Self.split(timeline, scan: scan)
        unmatchedAddresses = scan.unreachable.count - leaked.count
        func part(_ blocks: [HeapTimeline.Block]) -> Part {
            let groups = grouper.groups(blocks)
            return Part(count: blocks.count, bytes: blocks.reduce(0) { $0 &+ $1.size },
                        groups: Array(groups.prefix(top)), omittedGroups: max(groups.count - top, 0))
        }
        let leakedByGeneration = Dictionary(grouping: leaked, by: \.generation)
        let abandonedByGeneration = Dictionary(grouping: abandoned, by: \.generation)
        generations = timeline.generations.map { g in
            GenerationLeaks(generation: g, leaked: part(leakedByGeneration[g.index] ?? []),
                            abandoned: part(abandonedByGeneration[g.index] ?? []))
        }
    }

    public var leakedCount: Int { generations.reduce(0) { $0 + $1.leaked.count } }
    public var leakedBytes: UInt64 { generations.reduce(0) { $0 &+ $1.leaked.bytes } }
    public var abandonedCount: Int { generations.reduce(0) { $0 + $1.abandoned.count } }
    public var abandonedBytes: UInt64 { generations.reduce(0) { $0 &+ $1.abandoned.bytes } }

    var scanCaveats: [String] {
        var caveats: [String] = []
        if scan.flags.contains(.tableIncomplete) {
            caveats.append("the recorder's live-block table overflowed: some blocks were not scanned, leaks may be wrong")
        }
        if scan.flags.contains(.noProcessVMReadv) { caveats.append("process_vm_readv was refused: other threads' stacks were not scanned") }
        if scan.flags.contains(.noMaps) { caveats.append("/proc/self/maps was unreadable: no stack was scanned") }
        if unmatchedAddresses > 0 { caveats.append("\(unmatchedAddresses) unreachable addresses match no block alive in the recording") }
        return caveats
    }

    /// One line on the scan itself, shared by the text and HTML reports.
    public var scanSummary: String {
        var out = "exit scan: \(scan.liveBlocks) live blocks, \(scan.unreachableBlocks) unreachable (\(formatBytes(scan.unreachableBytes)))"
        out += "; \(formatBytes(scan.bytesRead)) read"
        if scan.otherThreadsScanned > 0 { out += ", \(scan.otherThreadsScanned) other thread stack\(scan.otherThreadsScanned == 1 ? "" : "s")" }
        return out + " in \(Self.milliseconds(scan.durationNanoseconds))"
    }

    public var textReport: String {
        var out = "\(path): pid \(pid)"
        if !command.isEmpty { out += ", \(command.joined(separator: " "))" }
        out += ", \(end.map(HeapReport.describe) ?? HeapReport.noEndRecord)\n"
        out += scanSummary + "\n"
        for caveat in scanCaveats { out += "warning: \(caveat)\n" }
        var table = [["gen", "label", "leaked", "bytes", "abandoned", "bytes"]]
        for g in generations {
            table.append([String(g.generation.index), Self.label(g.generation),
                          String(g.leaked.count), formatBytes(g.leaked.bytes),
                          String(g.abandoned.count), formatBytes(g.abandoned.bytes)])
        }
        table.append(["", "total", String(leakedCount), formatBytes(leakedBytes), String(abandonedCount), formatBytes(abandonedBytes)])
        out += renderTable(table, rightAligned: [0, 2, 3, 4, 5])
        for g in generations {
            for (title, part) in [("leaked", g.leaked), ("abandoned", g.abandoned)] where part.count > 0 {
                out += "\ngeneration \(g.generation.index) (\(Self.label(g.generation))): \(part.count) \(title) block\(part.count == 1 ? "" : "s"), "
                out += "\(formatBytes(part.bytes)), by \(groupKey.rawValue)\n"
                out += renderTable(part.groups.map { ["  " + formatBytes($0.bytes), String($0.count), $0.key] }, rightAligned: [0, 1])
                if part.omittedGroups > 0 { out += "  … \(part.omittedGroups) more\n" }
            }
        }
        return out
    }

    /// The report as JSON (`devkit heap leaks --format json`).
    public var jsonValue: JSONValue {
        func json(_ part: Part) -> JSONValue {
            ["count": .number(part.count), "bytes": .number(part.bytes), "groups": .array(part.groups.map(HeapReport.json))]
        }
        return [
            "file": .string(path),
            "pid": .number(pid),
            "command": .array(command.map { .string($0) }),
            "end": .string(end.map(HeapReport.describe) ?? "none"),
            "groupBy": .string(groupKey.rawValue),
            "scan": [
                "liveBlocks": .number(scan.liveBlocks),
                "unreachableBlocks": .number(scan.unreachableBlocks),
                "unreachableBytes": .number(scan.unreachableBytes),
                "bytesRead": .number(scan.bytesRead),
                "otherThreadsScanned": .number(scan.otherThreadsScanned),
                "durationNanoseconds": .number(scan.durationNanoseconds),
                "warnings": .array(scanCaveats.map { .string($0) }),
            ],
            "leaked": ["count": .number(leakedCount), "bytes": .number(leakedBytes)],
            "abandoned": ["count": .number(abandonedCount), "bytes": .number(abandonedBytes)],
            "generations": .array(generations.map { g in
                [
                    "index": .number(g.generation.index),
                    "label": .string(g.generation.mark.label),
                    "kind": .string(HeapReport.describe(g.generation.mark.kind)),
                    "leaked": json(g.leaked),
                    "abandoned": json(g.abandoned),
                ]
            }),
        ]
    }

    static func label(_ g: HeapTimeline.Generation) -> String {
        g.mark.label.isEmpty ? HeapReport.describe(g.mark.kind) : g.mark.label
    }

    static func milliseconds(_ ns: UInt64) -> String {
        let tenths = Int((Double(ns) / 100_000).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
