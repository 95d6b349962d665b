import ArgumentParser
import System
import HeapAnalysis
import PropertyList

/// `devkit heapdiff`: generations of one recording, or two recordings compared.
struct Heapdiff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what each generation of a heap recording left alive, or compare two recordings.",
        discussion: """
            With one recording: a table of generations (allocations made in each, how many are \
            still alive at the end of the recording — or at the next mark with --until next — \
            and the heap's growth), then the largest groups of survivors per generation. With \
            two: blocks alive at the end of A and of B, per group, largest growth first.

            Examples:
              devkit heapdiff app.dkheap
              devkit heapdiff app.dkheap --group-by function --until next --top 5
              devkit heapdiff before.dkheap after.dkheap --format json
              devkit heapdiff app.dkheap --format collapsed | flamegraph.pl > heap.svg
              devkit heapdiff app.dkheap --html heap.html
              devkit heapdiff app.dkheap --leaks

            With --leaks (a recording made with `devkit heap record --scan-at-exit`), each \
            generation's blocks alive at exit are split by the recorder's \
            exit scan into leaked (nothing pointed to them: unreachable, like memcheck's \
            definitely and indirectly lost) and abandoned (still reachable, never freed; an \
            interior pointer counts as a reference). --format collapsed then gives the leaked \
            bytes' stacks; --html a page with both tables and a flame graph of the leaked bytes \
            per generation.
            """
    )

    @Argument(help: "A recording (from devkit heap record).")
    var recording: String

    @Argument(help: "A second recording to compare against the first.")
    var other: String?

    @Option(name: .long, help: "Group by site, function, type or library.")
    var groupBy: GroupKeyArgument = .init(key: .site)

    @Option(name: .long, help: "Call-site frames shown with --group-by site.")
    var depth: Int = 1

    @Option(name: .long, help: "Count blocks alive at the end, or at the next mark (end|next).")
    var until: Horizon = .end

    @Option(name: .long, help: "Groups listed per generation.")
    var top: Int = 10

    @Option(name: .long, help: "Output: text, json, or collapsed (collapsed stacks of surviving bytes).")
    var format: HeapdiffFormat?

    @Option(name: .long, help: ArgumentHelp("Write a self-contained HTML page (tables and flame graphs) instead of printing.", valueName: "file"))
    var html: String?

    @Flag(name: .long, help: "Split blocks alive at exit into leaked (unreachable) and abandoned (needs heap record --scan-at-exit).")
    var leaks = false

    @Flag(name: .long, help: "Show frames as module+0xOFFSET without reading symbols.")
    var noSymbolicate = false

    @Option(name: .long, help: "A directory searched for separate debug files (repeatable).")
    var debugDir: [String] = []

    func validate() throws {
        guard depth >= 1 else { throw ValidationError("--depth must be at least 1.") }
        guard top >= 1 else { throw ValidationError("--top must be at least 1.") }
        if html != nil, format != nil { throw ValidationError("--html and --format are alternatives; give one.") }
        if leaks {
            guard other == nil else { throw ValidationError("--leaks takes one recording.") }
            guard until == .end else { throw ValidationError("--leaks reports blocks alive at the end (--until end).") }
        }
    }

    func run() throws {
        let symbolizer = ImageHeapSymbolizer(debugDirectories: debugDir)
        func grouper(_ recording: HeapRecording) -> HeapGrouper {
            let resolver = noSymbolicate ? FrameResolver(recording: recording)
                : FrameResolver(recording: recording, symbolizer: symbolizer)
            return HeapGrouper(resolver: resolver, key: groupBy.key, depth: depth)
        }
        defer { symbolizer.problems.forEach { FileHandleOutput.standardError("warning: not symbolicated: \($0)\n") } }
        let horizon: HeapTimeline.Horizon = until == .end ? .end : .nextMark
        let progress = HeapdiffProgress()
        defer { progress.clear() }
        let first = try HeapRecordingLoader.load(recording, progress: progress)
        let (firstTimeline, firstGrouper) = (HeapRecordingLoader.replay(first, progress: progress), grouper(first))
        if leaks {
            guard let report = LeakReport(recording: first, timeline: firstTimeline, grouper: firstGrouper, top: top) else {
                throw CommandFailure.input("\(recording): error: the recording has no exit scan; record with `devkit heap record --scan-at-exit` (and let the program exit normally: no scan after _exit, a crash or a kill)")
            }
            // Only the page and the collapsed stacks need the leaked blocks themselves.
            if let html {
                let leaked = LeakReport.split(firstTimeline, scan: report.scan).leaked
                let byGeneration = Dictionary(grouping: leaked, by: \.generation)
                let graphs = firstTimeline.generations.map { g in FlameGraph(blocks: byGeneration[g.index] ?? [], grouper: firstGrouper) }
                return try write(HeapHTMLReport.render(report, leakedGraphs: graphs), to: html, progress: progress)
            }
            return try render(text: report.textReport, json: report.jsonValue) {
                let leaked = LeakReport.split(firstTimeline, scan: report.scan).leaked
                return firstTimeline.generations.flatMap { g in
                    firstGrouper.collapsedStacks(leaked.filter { $0.generation == g.index }, prefix: "gen \(g.index) \(g.mark.label)")
                }
            }
        }
        guard let other else {
            let report = HeapReport(recording: first, timeline: firstTimeline, grouper: firstGrouper, horizon: horizon, top: top)
            if let html {
                let graphs = firstTimeline.generations.map { g in
                    FlameGraph(blocks: firstTimeline.survivors(of: g.index, until: horizon), grouper: firstGrouper)
                }
                return try write(HeapHTMLReport.render(report, flameGraphs: graphs), to: html, progress: progress)
            }
            return try render(text: report.textReport, json: report.jsonValue) {
                firstTimeline.generations.flatMap { g in
                    firstGrouper.collapsedStacks(firstTimeline.survivors(of: g.index, until: horizon), prefix: "gen \(g.index) \(g.mark.label)")
                }
            }
        }
        let second = try HeapRecordingLoader.load(other, progress: progress)
        let (secondTimeline, secondGrouper) = (HeapRecordingLoader.replay(second, progress: progress), grouper(second))
        let diff = HeapDiff(before: (firstTimeline, firstGrouper), after: (secondTimeline, secondGrouper))
        if let html {
            let before = FlameGraph(blocks: firstTimeline.blocks.filter(\.isAliveAtEnd), grouper: firstGrouper)
            let after = FlameGraph(blocks: secondTimeline.blocks.filter(\.isAliveAtEnd), grouper: secondGrouper)
            return try write(HeapHTMLReport.render(diff, before: (recording, before), after: (other, after)), to: html, progress: progress)
        }
        try render(text: diff.textReport, json: diff.jsonValue) {
            secondGrouper.collapsedStacks(secondTimeline.blocks.filter(\.isAliveAtEnd))
        }
    }

    /// The page replaces the file atomically: a browser reloading it never sees half a page.
    private func write(_ page: [UInt8], to path: String, progress: HeapdiffProgress) throws(CommandFailure) {
        do { try FileIO.writeAtomically(page, to: path) } catch { throw .io(error) }
        progress.clear()
        if path != FileIO.standardStream { FileHandleOutput.standardError("devkit: HTML report written to \(path)\n") }
    }

    private func render(text: String, json: PlistValue, collapsed: () -> [String]) throws(CommandFailure) {
        switch format ?? .text {
        case .text: try FileHandleOutput.standardOutput(text)
        case .json: try FileHandleOutput.standardOutput(PlistLoader.serialize(json, as: .json, source: recording))
        case .collapsed: try FileHandleOutput.standardOutput(collapsed().map { $0 + "\n" }.joined())
        }
    }
}

enum HeapdiffFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, collapsed
}

enum Horizon: String, ExpressibleByArgument, CaseIterable {
    case end, next
}

struct GroupKeyArgument: ExpressibleByArgument {
    var key: HeapGroupKey
    init(key: HeapGroupKey) { self.key = key }
    init?(argument: String) {
        guard let key = HeapGroupKey(rawValue: argument) else { return nil }
        self.key = key
    }
    static var allValueStrings: [String] { HeapGroupKey.allCases.map(\.rawValue) }
    var defaultValueDescription: String { key.rawValue }
}

/// Loads one recording, printing its warnings (a truncated tail) on stderr.
enum HeapRecordingLoader {
    static func load(_ path: String, progress: HeapdiffProgress = HeapdiffProgress(enabled: false)) throws(CommandFailure) -> HeapRecording {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path) } catch { throw .io(error) }
        do {
            let recording = try RecordingReader.read(bytes, path: path) { progress.bytes("reading", $0, of: $1) }
            progress.clear()
            for warning in recording.warnings {
                FileHandleOutput.standardError("\(path): offset 0x\(String(warning.offset, radix: 16)): warning: \(warning.message)\n")
            }
            return recording
        } catch {
            progress.clear()
            throw .input("\(path): offset 0x\(String(error.offset, radix: 16)): error: \(error.message)")
        }
    }

    /// Replays a recording into its timeline, showing progress.
    static func replay(_ recording: HeapRecording, progress: HeapdiffProgress) -> HeapTimeline {
        defer { progress.clear() }
        return HeapTimeline(recording) { progress.events("replaying", $0, of: $1) }
    }
}
