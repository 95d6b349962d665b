import JSONWriter

/// `devkit heapdiff FILE --leaks`: each generation's blocks alive at the end, split by the
/// recorder's exit scan into valgrind memcheck's four kinds: definitely lost (nothing points to
/// them), indirectly lost (only lost blocks do), possibly lost (reached only through interior
/// pointers) and still reachable (abandoned: reachable, never freed).
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
        /// One part per kind, in `LeakKind.allCases` order.
        public var parts: [Part]

        public subscript(kind: LeakKind) -> Part { parts[Self.index(kind)] }

        static func index(_ kind: LeakKind) -> Int {
            switch kind {
            case .definitelyLost: 0
            case .indirectlyLost: 1
            case .possiblyLost: 2
            case .stillReachable: 3
            }
        }

        /// Definitely and indirectly lost blocks: what nothing reached.
        public var leakedCount: Int { self[.definitelyLost].count + self[.indirectlyLost].count }
        public var leakedBytes: UInt64 { self[.definitelyLost].bytes &+ self[.indirectlyLost].bytes }
        public var blockCount: Int { parts.reduce(0) { $0 + $1.count } }
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

    /// The blocks alive at the end of `timeline`, split by the scan: (leaked: definitely and
    /// indirectly lost, abandoned: reached, possibly lost and still reachable).
    public static func split(_ timeline: HeapTimeline, scan: ExitScan) -> (leaked: [HeapTimeline.Block], abandoned: [HeapTimeline.Block]) {
        var leaked: [HeapTimeline.Block] = [], abandoned: [HeapTimeline.Block] = []
        for block in timeline.blocks where block.isAliveAtEnd {
            if scan.unreachable.contains(block.address) { leaked.append(block) } else { abandoned.append(block) }
        }
        return (leaked, abandoned)
    }

    /// The blocks alive at the end of `timeline` by kind.
    public static func classify(_ timeline: HeapTimeline, scan: ExitScan) -> [LeakKind: [HeapTimeline.Block]] {
        var result: [LeakKind: [HeapTimeline.Block]] = [:]
        for block in timeline.blocks where block.isAliveAtEnd {
            result[scan.kind(of: block.address), default: []].append(block)
        }
        return result
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
        let byKind = Self.classify(timeline, scan: scan)
        let matched = (byKind[.definitelyLost]?.count ?? 0) + (byKind[.indirectlyLost]?.count ?? 0)
        unmatchedAddresses = scan.unreachable.count - matched
        func part(_ blocks: [HeapTimeline.Block]) -> Part {
            let groups = grouper.groups(blocks)
            return Part(count: blocks.count, bytes: blocks.reduce(0) { $0 &+ $1.size },
                        groups: Array(groups.prefix(top)), omittedGroups: max(groups.count - top, 0))
        }
        let byGeneration = LeakKind.allCases.map { kind in Dictionary(grouping: byKind[kind] ?? [], by: \.generation) }
        generations = timeline.generations.map { g in
            GenerationLeaks(generation: g, parts: byGeneration.map { part($0[g.index] ?? []) })
        }
    }

    public func count(_ kind: LeakKind) -> Int { generations.reduce(0) { $0 + $1[kind].count } }
    public func bytes(_ kind: LeakKind) -> UInt64 { generations.reduce(0) { $0 &+ $1[kind].bytes } }

    /// Definitely and indirectly lost: what nothing reached.
    public var leakedCount: Int { count(.definitelyLost) + count(.indirectlyLost) }
    public var leakedBytes: UInt64 { bytes(.definitelyLost) &+ bytes(.indirectlyLost) }

    var scanCaveats: [String] {
        var caveats: [String] = []
        if scan.flags.contains(.tableIncomplete) {
            caveats.append("the recorder's live-block table overflowed: some blocks were not scanned, leaks may be wrong")
        }
        if scan.flags.contains(.noProcessVMReadv) { caveats.append("process_vm_readv was refused: other threads' stacks were not scanned") }
        if scan.flags.contains(.noMaps) { caveats.append("/proc/self/maps was unreadable: no stack was scanned") }
        if scan.flags.contains(.mappingsIncomplete) {
            caveats.append("the program made more mappings than the recorder keeps: some were not scanned")
        }
        if let kinds = scan.kinds {
            if kinds.threadsUnanswered > 0 {
                let n = kinds.threadsUnanswered
                caveats.append("\(n) other thread\(n == 1 ? "" : "s") did not stop at exit (the signal blocked?): \(n == 1 ? "its" : "their") registers were not scanned")
            }
        } else {
            caveats.append("recorded before leak kinds: indirectly lost blocks are counted as definitely lost, possibly lost ones as still reachable")
        }
        if unmatchedAddresses > 0 { caveats.append("\(unmatchedAddresses) unreachable addresses match no block alive in the recording") }
        return caveats
    }

    /// One line on the scan itself, shared by the text and HTML reports.
    public var scanSummary: String {
        var out = "exit scan: \(scan.liveBlocks) live blocks, \(scan.unreachableBlocks) unreachable (\(formatBytes(scan.unreachableBytes)))"
        out += "; \(formatBytes(scan.bytesRead)) read"
        if let kinds = scan.kinds {
            let n = kinds.threadsStopped + kinds.threadsUnanswered
            if n > 0 { out += ", \(n) other thread\(n == 1 ? "" : "s")" }
            if kinds.mappingsScanned > 0 {
                out += ", \(kinds.mappingsScanned) mapping\(kinds.mappingsScanned == 1 ? "" : "s") of the program (\(formatBytes(kinds.mappedBytesRead)))"
            }
        } else if scan.otherThreadsScanned > 0 {
            out += ", \(scan.otherThreadsScanned) other thread stack\(scan.otherThreadsScanned == 1 ? "" : "s")"
        }
        return out + " in \(Self.milliseconds(scan.durationNanoseconds))"
    }

    public var textReport: String {
        var out = "\(path): pid \(pid)"
        if !command.isEmpty { out += ", \(command.joined(separator: " "))" }
        out += ", \(end.map(HeapReport.describe) ?? HeapReport.noEndRecord)\n"
        out += scanSummary + "\n"
        for caveat in scanCaveats { out += "warning: \(caveat)\n" }
        var table = [["gen", "label"] + LeakKind.allCases.flatMap { [$0.column, "bytes"] }]
        for g in generations {
            table.append([String(g.generation.index), Self.label(g.generation)] + g.parts.flatMap { [String($0.count), formatBytes($0.bytes)] })
        }
        table.append(["", "total"] + LeakKind.allCases.flatMap { [String(count($0)), formatBytes(bytes($0))] })
        out += renderTable(table, rightAligned: [0, 2, 3, 4, 5, 6, 7, 8, 9])
        for g in generations {
            for kind in LeakKind.allCases where g[kind].count > 0 {
                let part = g[kind]
                out += "\ngeneration \(g.generation.index) (\(Self.label(g.generation))): \(part.count) block\(part.count == 1 ? "" : "s") \(kind.title), "
                out += "\(formatBytes(part.bytes)), by \(groupKey.rawValue)\n"
                out += renderTable(part.groups.map { ["  " + formatBytes($0.bytes), String($0.count), $0.key] }, rightAligned: [0, 1])
                if part.omittedGroups > 0 { out += "  … \(part.omittedGroups) more\n" }
            }
        }
        return out
    }

    /// The report as JSON (`devkit heapdiff --leaks --format json`): per kind (`definitelyLost`,
    /// `indirectlyLost`, `possiblyLost`, `stillReachable`) counts and bytes, in all and per
    /// generation with its groups; `leaked` is definitely plus indirectly lost.
    public var jsonValue: JSONValue {
        func json(_ part: Part) -> JSONValue {
            ["count": .number(part.count), "bytes": .number(part.bytes), "groups": .array(part.groups.map(HeapReport.json))]
        }
        var scanValue: [JSONMember] = [
            JSONMember("liveBlocks", .number(scan.liveBlocks)),
            JSONMember("unreachableBlocks", .number(scan.unreachableBlocks)),
            JSONMember("unreachableBytes", .number(scan.unreachableBytes)),
            JSONMember("bytesRead", .number(scan.bytesRead)),
            JSONMember("otherThreadsScanned", .number(scan.otherThreadsScanned)),
            JSONMember("durationNanoseconds", .number(scan.durationNanoseconds)),
            JSONMember("leakKinds", .bool(scan.kinds != nil)),
        ]
        if let kinds = scan.kinds {
            scanValue.append(JSONMember("otherThreadsStopped", .number(kinds.threadsStopped)))
            scanValue.append(JSONMember("otherThreadsNotStopped", .number(kinds.threadsUnanswered)))
            scanValue.append(JSONMember("programMappingsScanned", .number(kinds.mappingsScanned)))
            scanValue.append(JSONMember("programMappingBytesRead", .number(kinds.mappedBytesRead)))
        }
        scanValue.append(JSONMember("warnings", .array(scanCaveats.map { .string($0) })))
        var value: [JSONMember] = [
            JSONMember("file", .string(path)),
            JSONMember("pid", .number(pid)),
            JSONMember("command", .array(command.map { .string($0) })),
            JSONMember("end", .string(end.map(HeapReport.describe) ?? "none")),
            JSONMember("groupBy", .string(groupKey.rawValue)),
            JSONMember("scan", .object(scanValue)),
            JSONMember("leaked", ["count": .number(leakedCount), "bytes": .number(leakedBytes)]),
        ]
        for kind in LeakKind.allCases {
            value.append(JSONMember(kind.rawValue, ["count": .number(count(kind)), "bytes": .number(bytes(kind))]))
        }
        value.append(JSONMember("generations", .array(generations.map { g in
            var generation: [JSONMember] = [
                JSONMember("index", .number(g.generation.index)),
                JSONMember("label", .string(g.generation.mark.label)),
                JSONMember("kind", .string(HeapReport.describe(g.generation.mark.kind))),
            ]
            for kind in LeakKind.allCases { generation.append(JSONMember(kind.rawValue, json(g[kind]))) }
            return .object(generation)
        })))
        return .object(value)
    }

    static func label(_ g: HeapTimeline.Generation) -> String {
        g.mark.label.isEmpty ? HeapReport.describe(g.mark.kind) : g.mark.label
    }

    static func milliseconds(_ ns: UInt64) -> String {
        let tenths = Int((Double(ns) / 100_000).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
