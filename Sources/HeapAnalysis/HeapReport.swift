import JSONWriter

/// What `devkit heapdiff FILE` shows: each generation with its surviving blocks grouped.
public struct HeapReport: Sendable {
    public struct GenerationSummary: Sendable {
        public var generation: HeapTimeline.Generation
        public var survivorCount: Int
        public var survivorBytes: UInt64
        /// Largest groups first, at most `top`.
        public var groups: [HeapGroup]
        /// Groups left out by `top`.
        public var omittedGroups: Int
    }

    public var path: String
    public var pid: UInt32
    public var command: [String]
    public var end: RecordingEnd?
    public var horizon: HeapTimeline.Horizon
    public var groupKey: HeapGroupKey
    public var generations: [GenerationSummary]
    public var unmatchedFrees: Int
    public var warnings: [RecordingWarning]

    public init(recording: HeapRecording, timeline: HeapTimeline, grouper: HeapGrouper,
                horizon: HeapTimeline.Horizon, top: Int) {
        path = recording.path
        pid = recording.header.pid
        command = recording.command
        end = recording.end
        self.horizon = horizon
        groupKey = grouper.key
        unmatchedFrees = timeline.unmatchedFrees
        warnings = recording.warnings
        generations = timeline.generations.map { generation in
            let survivors = timeline.survivors(of: generation.index, until: horizon)
            let groups = grouper.groups(survivors)
            return GenerationSummary(
                generation: generation, survivorCount: survivors.count,
                survivorBytes: survivors.reduce(0) { $0 &+ $1.size },
                groups: Array(groups.prefix(top)), omittedGroups: max(groups.count - top, 0))
        }
    }

    public var textReport: String {
        var out = "\(path): pid \(pid)"
        if !command.isEmpty { out += ", \(command.joined(separator: " "))" }
        out += ", \(end.map(Self.describe) ?? HeapReport.noEndRecord)\n"
        let aliveTitle = horizon == .end ? "alive at end" : "alive at next mark"
        var table = [["gen", "label", "allocated", "bytes", aliveTitle, "bytes", "heap growth"]]
        for summary in generations {
            let g = summary.generation
            table.append([String(g.index), g.mark.label.isEmpty ? "(\(Self.describe(g.mark.kind)))" : g.mark.label,
                          String(g.allocatedCount), formatBytes(g.allocatedBytes),
                          String(summary.survivorCount), formatBytes(summary.survivorBytes),
                          formatSignedBytes(g.growth)])
        }
        out += renderTable(table, rightAligned: [0, 2, 3, 4, 5, 6])
        for summary in generations where summary.survivorCount > 0 {
            let g = summary.generation
            out += "\ngeneration \(g.index) (\(g.mark.label.isEmpty ? Self.describe(g.mark.kind) : g.mark.label)): "
            out += "\(summary.survivorCount) block\(summary.survivorCount == 1 ? "" : "s"), \(formatBytes(summary.survivorBytes)) \(aliveTitle), by \(groupKey.rawValue)\n"
            var rows: [[String]] = []
            for group in summary.groups {
                rows.append(["  " + formatBytes(group.bytes), String(group.count), group.key])
            }
            out += renderTable(rows, rightAligned: [0, 1])
            if summary.omittedGroups > 0 { out += "  … \(summary.omittedGroups) more\n" }
        }
        if unmatchedFrees > 0 {
            out += "\nnote: \(unmatchedFrees) frees of blocks allocated before recording started\n"
        }
        return out
    }

    /// The report as JSON (`devkit heap report --format json`).
    public var jsonValue: JSONValue {
        [
            "file": .string(path),
            "pid": .number(pid),
            "command": .array(command.map { .string($0) }),
            "end": .string(end.map(Self.describe) ?? "none"),
            "alive": .string(horizon == .end ? "end" : "next-mark"),
            "groupBy": .string(groupKey.rawValue),
            "generations": .array(generations.map { summary in
                let g = summary.generation
                return [
                    "index": .number(g.index),
                    "label": .string(g.mark.label),
                    "kind": .string(Self.describe(g.mark.kind)),
                    "allocatedCount": .number(g.allocatedCount),
                    "allocatedBytes": .number(g.allocatedBytes),
                    "aliveCount": .number(summary.survivorCount),
                    "aliveBytes": .number(summary.survivorBytes),
                    "growthBytes": .number(g.growth),
                    "groups": .array(summary.groups.map(Self.json)),
                ]
            }),
            "unmatchedFrees": .number(unmatchedFrees),
            "warnings": .array(warnings.map { .string($0.description) }),
        ]
    }

    static func json(_ group: HeapGroup) -> JSONValue {
        ["key": .string(group.key), "count": .number(group.count), "bytes": .number(group.bytes)]
    }

    /// A recording without an end record: the recorder catches exit, `_exit`, exec and fatal
    /// signals, so only SIGKILL (or a cut copy) leaves none.
    static let noEndRecord = "no end record: killed (SIGKILL) or cut short, the events its threads still buffered are missing"

    static func describe(_ end: RecordingEnd) -> String {
        switch end.reason {
        case .exit: "ended by exit"
        case .immediateExit(let status): "ended by _exit(\(status))"
        case .signal(let signal): "ended by signal \(signal)"
        case .writeFailed: "recording stopped: a write failed (disk full?)"
        case .exec: "ended by exec"
        case .other(let raw): "ended (reason \(raw))"
        }
    }

    static func describe(_ kind: GenerationMark.Kind) -> String {
        switch kind {
        case .start: "start"
        case .api: "api"
        case .signal: "signal"
        case .interval: "interval"
        case .other(let raw): "mark \(raw)"
        }
    }
}

/// `1.5 KiB`, `12 B`: binary units, one decimal.
public func formatBytes(_ bytes: UInt64) -> String {
    if bytes < 1024 { return "\(bytes) B" }
    let units = ["KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) \(units[unit])"
}

func formatSignedBytes(_ bytes: Int64) -> String {
    bytes < 0 ? "-" + formatBytes(bytes.magnitude) : "+" + formatBytes(UInt64(bytes))
}

/// Columns padded to their widest cell; the last column is never padded.
func renderTable(_ rows: [[String]], rightAligned: Set<Int>) -> String {
    guard let columns = rows.map(\.count).max() else { return "" }
    var widths = Array(repeating: 0, count: columns)
    for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
    var out = ""
    for row in rows {
        var line = ""
        for (i, cell) in row.enumerated() {
            let pad = String(repeating: " ", count: widths[i] - cell.count)
            if i > 0 { line += "  " }
            if rightAligned.contains(i) { line += pad + cell } else { line += i == row.count - 1 ? cell : cell + pad }
        }
        while line.hasSuffix(" ") { line.removeLast() }
        out += line + "\n"
    }
    return out
}
