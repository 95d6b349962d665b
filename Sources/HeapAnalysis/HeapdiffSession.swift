import Diagnostics
import Dispatch
import JSONWriter
import System

/// `devkit heapdiff`'s front end: reads one recording (or two), replays it into a timeline,
/// groups its blocks and renders the report: the generations table, the comparison of two
/// recordings, or the leak report, as text, JSON, collapsed stacks or an HTML page.
///
/// Recordings are mapped, not read into memory: events are decoded from the mapping when
/// replayed. Warnings (a truncated tail) go to `warning` as whole lines as each recording is
/// read; progress goes to a terminal's stderr.
public final class HeapdiffSession {
    /// What to report.
    public struct Options: Sendable {
        /// How blocks are grouped.
        public var groupBy: HeapGroupKey = .site
        /// Call-site frames in a `.site` key.
        public var depth = 1
        /// Survivors counted at the end of the recording or at the next mark.
        public var horizon: HeapTimeline.Horizon = .end
        /// Groups listed per generation.
        public var top = 10
        /// Split blocks alive at exit by memcheck's leak kinds (needs the exit scan).
        public var leaks = false

        public init(groupBy: HeapGroupKey = .site, depth: Int = 1, horizon: HeapTimeline.Horizon = .end, top: Int = 10,
                    leaks: Bool = false) {
            (self.groupBy, self.depth, self.horizon, self.top, self.leaks) = (groupBy, depth, horizon, top, leaks)
        }
    }

    /// The report's form.
    public enum Format: Sendable {
        /// The tables, for a terminal.
        case text
        /// The same data as JSON.
        case json
        /// `frame;frame;… bytes` lines (flamegraph.pl, speedscope) of the surviving (or, with
        /// `leaks`, leaked) bytes.
        case collapsed
        /// A self-contained page with the tables and flame graphs.
        case html
    }

    private let options: Options
    private let symbolizer: (any HeapSymbolizer)?
    private let progress: HeapdiffProgress
    private let warning: (String) -> Void

    /// - Parameters:
    ///   - symbolizer: resolves frames and type names; nil shows frames as `module+0xOFFSET`.
    ///   - warning: receives each warning as a line ending in a newline.
    public init(options: Options, symbolizer: (any HeapSymbolizer)?, progress: HeapdiffProgress = HeapdiffProgress(),
                warning: @escaping (String) -> Void) {
        self.options = options
        self.symbolizer = symbolizer
        self.progress = progress
        self.warning = warning
    }

    /// The report on the recording at `path`, or on `path` and `other` compared, in `format`.
    public func report(_ path: String, comparedWith other: String? = nil, as format: Format) throws(HeapdiffError) -> [UInt8] {
        defer { progress.clear() }
        let first = try replay(path, for: format)
        if options.leaks { return try leakReport(first, as: format) }
        guard let other else { return try generationReport(first, as: format) }
        let second = try replay(other, for: format)
        let diff = HeapDiff(before: (first.timeline, first.grouper), after: (second.timeline, second.grouper))
        switch format {
        case .html:
            let before = FlameGraph(blocks: first.timeline.blocks.filter(\.isAliveAtEnd), grouper: first.grouper)
            let after = FlameGraph(blocks: second.timeline.blocks.filter(\.isAliveAtEnd), grouper: second.grouper)
            return HeapHTMLReport.render(diff, before: (path, before), after: (other, after))
        case .text, .json, .collapsed:
            return render(format, text: diff.textReport, json: diff.jsonValue) {
                second.grouper.collapsedStacks(second.timeline.blocks.filter(\.isAliveAtEnd))
            }
        }
    }

    /// One recording, replayed and ready to group.
    private struct Replayed {
        var recording: HeapRecording
        var timeline: HeapTimeline
        var grouper: HeapGrouper
    }

    private func replay(_ path: String, for format: Format) throws(HeapdiffError) -> Replayed {
        let recording = try read(path)
        let resolver = symbolizer.map { FrameResolver(recording: recording, symbolizer: $0) } ?? FrameResolver(recording: recording)
        let grouper = HeapGrouper(resolver: resolver, key: options.groupBy, depth: options.depth)
        // The symbol files the report will read are opened on another thread while the events
        // replay on this one: neither waits for the other (libdw loaded, the dynamic loader's
        // debug file and the program opened: a sixth of cross-thread's heapdiff on one thread).
        // The other thread has the symbolizer and the grouper to itself until `opened` is
        // waited for: this one only replays meanwhile.
        let opened = DispatchGroup()
        let frames = framesSymbolicated(in: format)
        if let symbolizer, frames > 0 {
            nonisolated(unsafe) let symbolizer = symbolizer, grouper = grouper
            DispatchQueue.global().async(group: opened) { symbolizer.prepare(grouper.modulesNear(callSitesWithin: frames)) }
        }
        let timeline = HeapTimeline(recording) { [progress] in progress.events("replaying", $0, of: $1) }
        progress.clear()
        opened.wait()
        return Replayed(recording: recording, timeline: timeline, grouper: grouper)
    }

    /// Frames from each stack's call site that the report names: the site key's `depth`, the
    /// function key's one, every frame in a flame graph or collapsed stack; none by library, or
    /// by type (a type is the symbol at a block's class metadata, known only once replayed).
    private func framesSymbolicated(in format: Format) -> Int {
        if format == .html || format == .collapsed { return .max }
        switch options.groupBy {
        case .site: return options.depth
        case .function: return 1
        case .library, .type: return 0
        }
    }

    /// Maps the recording; standard input (`-`) and files that cannot be mapped (a pipe) are
    /// read into memory instead.
    private func read(_ path: String) throws(HeapdiffError) -> HeapRecording {
        let file: MappedFile
        do {
            if path == FileIO.standardStream || DirectoryWalk.type(of: path) == .other {
                file = MappedFile(copying: try FileIO.readStream(path), path: path)
            } else {
                file = try MappedFile(path: path)
            }
        } catch {
            throw .io(error)
        }
        do {
            let recording = try RecordingReader.read(file, path: path) { [progress] in progress.bytes("reading", $0, of: $1) }
            progress.clear()
            for warning in recording.warnings {
                self.warning("\(path): offset 0x\(String(warning.offset, radix: 16)): warning: \(warning.message)\n")
            }
            return recording
        } catch {
            progress.clear()
            throw .unreadable(error)
        }
    }

    private func generationReport(_ replayed: Replayed, as format: Format) throws(HeapdiffError) -> [UInt8] {
        let (timeline, grouper, horizon) = (replayed.timeline, replayed.grouper, options.horizon)
        let report = HeapReport(recording: replayed.recording, timeline: timeline, grouper: grouper, horizon: horizon, top: options.top)
        switch format {
        case .html:
            return HeapHTMLReport.render(report) { index in
                FlameGraph(blocks: timeline.survivors(of: index, until: horizon), grouper: grouper)
            }
        case .text, .json, .collapsed:
            return render(format, text: report.textReport, json: report.jsonValue) {
                timeline.generations.flatMap { g in
                    grouper.collapsedStacks(timeline.survivors(of: g.index, until: horizon), prefix: "gen \(g.index) \(g.mark.label)")
                }
            }
        }
    }

    private func leakReport(_ replayed: Replayed, as format: Format) throws(HeapdiffError) -> [UInt8] {
        let (timeline, grouper) = (replayed.timeline, replayed.grouper)
        guard let report = LeakReport(recording: replayed.recording, timeline: timeline, grouper: grouper, top: options.top) else {
            throw .noExitScan(path: replayed.recording.path)
        }
        // Only the page and the collapsed stacks need the leaked blocks themselves.
        switch format {
        case .html:
            let leaked = LeakReport.split(timeline, scan: report.scan).leaked
            let byGeneration = Dictionary(grouping: leaked, by: \.generation)
            return HeapHTMLReport.render(report) { index in FlameGraph(blocks: byGeneration[index] ?? [], grouper: grouper) }
        case .text, .json, .collapsed:
            return render(format, text: report.textReport, json: report.jsonValue) {
                let leaked = Dictionary(grouping: LeakReport.split(timeline, scan: report.scan).leaked, by: \.generation)
                return timeline.generations.flatMap { g in
                    grouper.collapsedStacks(leaked[g.index] ?? [], prefix: "gen \(g.index) \(g.mark.label)")
                }
            }
        }
    }

    /// The text, JSON or collapsed stacks. Text and JSON are both built whatever the format:
    /// building them symbolicates, and the order in which images are opened decides the order
    /// of the "not symbolicated" warnings.
    private func render(_ format: Format, text: String, json: JSONValue, collapsed: () -> [String]) -> [UInt8] {
        switch format {
        case .text, .html: return Array(TerminalText.escapedKeepingLines(text).utf8)
        case .json: return JSONWriter.write(json)
        case .collapsed: return Array(collapsed().map { $0 + "\n" }.joined().utf8)
        }
    }
}
