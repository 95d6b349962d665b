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
        /// When the generation's peak (`generation.peak`) was reached, in seconds since the
        /// start; nil without times in the recording.
        public var peakSeconds: Double?
    }

    /// The most bytes alive at once over the run, when, and what was alive then.
    public struct PeakSummary: Sendable {
        public var peak: HeapTimeline.Peak
        public var seconds: Double?
        /// Largest groups of the blocks alive at the peak, at most `top`.
        public var groups: [HeapGroup]
        public var omittedGroups: Int
        /// Pairs the recorder cancelled (counted, not recorded) and their bytes.
        public var cancelledCount: Int
        public var cancelledBytes: UInt64
    }

    public var path: String
    public var pid: UInt32
    public var command: [String]
    public var end: RecordingEnd?
    public var horizon: HeapTimeline.Horizon
    public var groupKey: HeapGroupKey
    public var generations: [GenerationSummary]
    public var unmatchedFrees: Int
    /// In a recording attached to a running process: frees of blocks allocated before the
    /// attach (every allocation after it is recorded), counted apart from `unmatchedFrees`.
    public var preAttachFrees: Int
    /// Recorded from an attach to a running process (`heap record --pid`).
    public var attached: Bool
    public var warnings: [RecordingWarning]
    public var peak: PeakSummary
    /// Threads whose allocation/free pairs the recorder cancelled.
    public var threadsWithCancelledPairs: Int
    /// Live bytes over the run.
    public var chart: LiveBytesChart

    public init(recording: HeapRecording, timeline: HeapTimeline, grouper: HeapGrouper,
                horizon: HeapTimeline.Horizon, top: Int) {
        path = recording.path
        pid = recording.header.pid
        command = recording.command
        end = recording.end
        self.horizon = horizon
        groupKey = grouper.key
        // Attached, the recorder saw every allocation from the attach on: a free of an
        // address it never saw allocated is a block from before the attach.
        unmatchedFrees = recording.header.attached ? 0 : timeline.unmatchedFrees
        preAttachFrees = recording.header.attached ? timeline.unmatchedFrees : 0
        attached = recording.header.attached
        warnings = recording.warnings
        let clock = recording.clock
        let seconds: (UInt64) -> Double? = { seq in clock.offset(of: seq).map { Double($0) / 1e9 } }
        generations = timeline.generations.map { generation in
            let survivors = timeline.survivors(of: generation.index, until: horizon)
            let groups = grouper.groups(survivors)
            return GenerationSummary(
                generation: generation, survivorCount: survivors.count,
                survivorBytes: survivors.reduce(0) { $0 &+ $1.size },
                groups: Array(groups.prefix(top)), omittedGroups: max(groups.count - top, 0),
                peakSeconds: seconds(generation.peak.seq))
        }
        var atPeak = grouper.groups(timeline.blocks.filter(timeline.isAliveAtPeak))
        if timeline.peak.shortLivedBlocks > 0 || timeline.peak.shortLivedBytes > 0 {
            // Blocks of cancelled pairs have no stack in the events: one group of their own.
            atPeak.append(HeapGroup(key: Self.shortLivedGroup, count: timeline.peak.shortLivedBlocks, bytes: timeline.peak.shortLivedBytes))
            atPeak.sort { ($0.bytes, $0.count, $1.key) > ($1.bytes, $1.count, $0.key) }
        }
        peak = PeakSummary(peak: timeline.peak, seconds: seconds(timeline.peak.seq), groups: Array(atPeak.prefix(top)),
                           omittedGroups: max(atPeak.count - top, 0), cancelledCount: recording.cancelledPairCount,
                           cancelledBytes: timeline.shortLived.reduce(0) { $0 &+ $1.bytes })
        chart = LiveBytesChart(timeline, time: seconds)
        threadsWithCancelledPairs = Set(recording.cancelledPairs.map(\.thread)).count
    }

    /// The group of the peak's blocks that were cancelled pairs (recorded without stacks).
    public static let shortLivedGroup = "(short-lived blocks: allocated and freed between two recorded events of a thread)"

    /// "alive at end", "alive at next mark", "alive at peak".
    static func aliveTitle(_ horizon: HeapTimeline.Horizon) -> String {
        switch horizon {
        case .end: "alive at end"
        case .nextMark: "alive at next mark"
        case .peak: "alive at peak"
        }
    }

    /// `48.0 KiB in 3 blocks at 0.012 s, generation 1 (open/close 1)`.
    func describe(_ summary: PeakSummary) -> String {
        let p = summary.peak
        var out = "\(formatBytes(p.bytes)) in \(p.blocks) block\(p.blocks == 1 ? "" : "s") at "
        out += summary.seconds.map(formatSeconds) ?? "seq \(p.seq)"
        if generations.indices.contains(p.generation) {
            let g = generations[p.generation].generation
            out += ", generation \(g.index) (\(g.mark.label.isEmpty ? Self.describe(g.mark.kind) : g.mark.label))"
        }
        return out
    }

    /// Says what the peak may miss when the recorder cancelled pairs on several threads.
    var shortLivedNote: String? {
        guard threadsWithCancelledPairs > 1 else { return nil }
        return "\(peak.cancelledCount) short-lived blocks (\(formatBytes(peak.cancelledBytes))) on \(threadsWithCancelledPairs) threads were "
            + "counted, not recorded: the peak counts each thread's at their highest, not several threads' at once; "
            + "`devkit heap record --every-event` records them all"
    }

    public var textReport: String {
        var out = "\(path): pid \(pid)"
        if attached { out += " (attached)" }
        if !command.isEmpty { out += ", \(command.joined(separator: " "))" }
        out += ", \(end.map(Self.describe) ?? HeapReport.noEndRecord)\n"
        let aliveTitle = Self.aliveTitle(horizon)
        var table = [["gen", "label", "allocated", "bytes", aliveTitle, "bytes", "heap growth", "peak"]]
        for summary in generations {
            let g = summary.generation
            table.append([String(g.index), g.mark.label.isEmpty ? "(\(Self.describe(g.mark.kind)))" : g.mark.label,
                          String(g.allocatedCount), formatBytes(g.allocatedBytes),
                          String(summary.survivorCount), formatBytes(summary.survivorBytes),
                          formatSignedBytes(g.growth), formatBytes(g.peak.bytes)])
        }
        out += renderTable(table, rightAligned: [0, 2, 3, 4, 5, 6, 7])
        out += "\npeak: \(describe(peak))"
        if peak.peak.bytes > 0 {
            out += "; alive then, by \(groupKey.rawValue)\n"
            out += renderTable(peak.groups.map { ["  " + formatBytes($0.bytes), String($0.count), $0.key] }, rightAligned: [0, 1])
            if peak.omittedGroups > 0 { out += "  … \(peak.omittedGroups) more\n" }
        } else {
            out += "\n"
        }
        if let note = shortLivedNote { out += "note: \(note)\n" }
        out += "\nlive bytes (each column its highest level; ^ marks a generation)\n" + chart.text()
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
        if preAttachFrees > 0 {
            out += "\nnote: \(preAttachFrees) frees of blocks allocated before the attach (not in the counts above)\n"
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
            "alive": .string(horizon == .end ? "end" : (horizon == .nextMark ? "next-mark" : "peak")),
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
                    "peakBytes": .number(g.peak.bytes),
                    "peakBlocks": .number(g.peak.blocks),
                    "peakSeq": .number(g.peak.seq),
                    "peakSeconds": summary.peakSeconds.map { .double($0) } ?? .null,
                    "groups": .array(summary.groups.map(Self.json)),
                ]
            }),
            "peak": [
                "bytes": .number(peak.peak.bytes),
                "blocks": .number(peak.peak.blocks),
                "seq": .number(peak.peak.seq),
                "seconds": peak.seconds.map { .double($0) } ?? .null,
                "generation": .number(peak.peak.generation),
                "groups": .array(peak.groups.map(Self.json)),
                "shortLivedBytes": .number(peak.peak.shortLivedBytes),
                "shortLivedBlocks": .number(peak.peak.shortLivedBlocks),
            ],
            "timeline": [
                "unit": .string(chart.inSeconds ? "seconds" : "seq"),
                "points": .array(chart.samples.map { sample in
                    ["seq": .number(sample.seq), "x": .double(sample.x), "bytes": .number(sample.bytes),
                     "blocks": .number(sample.blocks), "generation": .number(sample.generation)]
                }),
                "marks": .array(chart.marks.map { mark in
                    ["generation": .number(mark.generation), "seq": .number(mark.seq), "x": .double(mark.x), "label": .string(mark.label)]
                }),
            ],
            "unmatchedFrees": .number(unmatchedFrees),
            "preAttachFrees": .number(preAttachFrees),
            "attached": .bool(attached),
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
        case .detached: "detached (the process ran on)"
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
