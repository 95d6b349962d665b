import DevKitTestSupport
import Foundation
@testable import HeapAnalysis
import HeapSymbolication
import HeapTestSupport
import PropertyList
import Testing

/// The HTML report of a recorded C program (Programs/generations.c), read back with an HTML
/// parser, and the flame-graph layout's invariants.
@Suite(.serialized) struct HeapHTMLReportTests {
    static let hostileLabel = "load <script>alert(\"x\")</script> & 'more'"

    static let programs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Programs")

    /// generations.c compiled and recorded once per test process.
    static let recorded: Result<HeapRecording, any Error> = Result {
        guard let cc = HeapFixture.compiler() else { throw HeapFixture.FixtureError(message: "no C compiler") }
        let directory = try HeapFixture.temporaryDirectory()
        let program = directory.appendingPathComponent("generations").path
        let build = try HeapFixture.run(cc, ["-g", "-O0", Self.programs.appendingPathComponent("generations.c").path, "-o", program])
        guard build.status == 0 else { throw HeapFixture.FixtureError(message: "cc failed: \(build.stderr)") }
        let run = try HeapFixture.record(program, [], name: "generations")
        guard run.status == 0 else { throw HeapFixture.FixtureError(message: "record failed: \(run.stderr)") }
        return try HeapFixture.load(run.recordingPath)
    }

    static func report(top: Int = 10) throws -> (HeapReport, [FlameGraph], String) {
        let recording = try recorded.get()
        let timeline = HeapTimeline(recording)
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer()), key: .function)
        let report = HeapReport(recording: recording, timeline: timeline, grouper: grouper, horizon: .end, top: top)
        let graphs = timeline.generations.map { FlameGraph(blocks: timeline.survivors(of: $0.index, until: .end), grouper: grouper) }
        let html = String(decoding: HeapHTMLReport.render(report, flameGraphs: graphs), as: UTF8.self)
        return (report, graphs, html)
    }

    @Test func pageStructureMatchesTheTextReport() throws {
        let (report, _, html) = try Self.report()
        #expect(report.generations.map(\.generation.mark.label) == ["start", Self.hostileLabel, "idle"])
        guard let page = try HTMLStructure.parse(html) else {
            print("skipped the parse: no python3")
            return
        }
        #expect(page.errors == [])
        #expect(page.scriptElements == 0)
        #expect(page.pageTitle.hasPrefix("heapdiff "))

        // The generations table: one row per generation, the same cells as the text table.
        let generations = try #require(page.tables["top"])
        #expect(generations.first == ["gen", "label", "allocated", "bytes", "alive at end", "bytes", "heap growth", "peak"])
        #expect(generations.dropFirst().map { $0[1] } == ["start", Self.hostileLabel, "idle"])
        let textLines = report.textReport.split(separator: "\n").map(String.init)
        for (row, summary) in zip(generations.dropFirst(), report.generations) {
            #expect(row[0] == String(summary.generation.index))
            #expect(row[4] == String(summary.survivorCount))
            #expect(row[5] == formatBytes(summary.survivorBytes))
            // The text table shows the same cells in the same order.
            #expect(textLines.contains { Self.containsInOrder($0, row) }, "\(row)")
        }

        // The peak: the chart (with the peak's dot, a line, the marks) above the flame graphs,
        // and the groups alive then, the same as the text report's.
        let timeline = try #require(page.tables["timeline"])
        #expect(timeline == [["bytes", "blocks", "function"]] + report.peak.groups.map { [formatBytes($0.bytes), String($0.count), $0.key] })
        #expect(html.range(of: "id=\"timeline-chart\"")!.lowerBound < html.range(of: "id=\"flame-")!.lowerBound)
        let chartTips = try #require(page.tooltips["timeline-chart"])
        #expect(chartTips.contains { $0.hasPrefix("peak \(formatBytes(report.peak.peak.bytes)) in \(report.peak.peak.blocks) blocks at ") })
        #expect(chartTips.filter { $0.hasPrefix("generation ") }.count == report.generations.count - 1)
        #expect(html.contains("<polyline class=\"live\" points=\""))

        // Generation 1's sites: exactly the text report's rows.
        let sites = try #require(page.tables["gen-1"])
        let expected = [["bytes", "blocks", "function"]] + report.generations[1].groups.map { [formatBytes($0.bytes), String($0.count), $0.key] }
        #expect(sites == expected)
        #expect(sites.contains(["4.9 KiB", "5", "decode_image"]))
        #expect(sites.contains(["2.3 KiB", "3", "load_fonts"]))
        #expect(textLines.contains { $0.hasSuffix("4.9 KiB  5  decode_image") })
        #expect(textLines.contains { $0.hasSuffix("2.3 KiB  3  load_fonts") })
        #expect(page.tables["gen-0"]?.contains(["400 B", "2", "make_config"]) == true)
        #expect(page.tables["gen-2"] == nil)  // nothing of "idle" survived

        // Flame-graph tooltips: every frame of the path, with blocks and bytes.
        let tooltips = try #require(page.tooltips["flame-1"])
        #expect(tooltips.contains("decode_image — 5 blocks, 5000 bytes (4.9 KiB)"))
        #expect(tooltips.contains("load_images — 5 blocks, 5000 bytes (4.9 KiB)"))
        #expect(tooltips.contains("load_fonts — 3 blocks, 2331 bytes (2.3 KiB)"))
        #expect(tooltips.contains("main — 8 blocks, 7331 bytes (7.2 KiB)"))
        #expect(page.tooltips["flame-0"]?.contains("make_config — 2 blocks, 400 bytes (400 B)") == true)
    }

    @Test func everythingFromTheRecordingIsEscaped() throws {
        let (_, _, html) = try Self.report()
        #expect(!html.lowercased().contains("<script"))
        #expect(html.contains("load &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39;"))
        // Self-contained: nothing is fetched.
        for fetch in ["src=", "url(", "@import", "<link", "href=\"http"] { #expect(!html.contains(fetch), "\(fetch)") }
        #expect(MarkupText.escape("a<b>&\"'\u{1}\tz") == "a&lt;b&gt;&amp;&quot;&#39;\u{FFFD}\tz")
    }

    @Test func comparisonPage() throws {
        let recording = try Self.recorded.get()
        let timeline = HeapTimeline(recording)
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording, symbolizer: ImageHeapSymbolizer()), key: .function)
        let diff = HeapDiff(before: (timeline, grouper), after: (timeline, grouper))
        let graph = FlameGraph(blocks: timeline.blocks.filter(\.isAliveAtEnd), grouper: grouper)
        let html = String(decoding: HeapHTMLReport.render(diff, before: ("a<1>.dkheap", graph), after: ("b.dkheap", graph)), as: UTF8.self)
        #expect(html.contains("no differences by function"))
        #expect(html.contains("a&lt;1&gt;.dkheap → b.dkheap"))
        guard let page = try HTMLStructure.parse(html) else { return }
        #expect(page.errors == [])
        #expect(page.tooltips["flame-after"]?.contains("decode_image — 5 blocks, 5000 bytes (4.9 KiB)") == true)
    }

    @Test func layoutOfTheRecordedProgram() throws {
        let (_, graphs, _) = try Self.report()
        let layout = FlameGraph.Layout(graphs[1], width: 1000)
        Self.checkInvariants(layout)
        let decode = try #require(layout.rects.first { $0.name == "decode_image" })
        let fonts = try #require(layout.rects.first { $0.name == "load_fonts" })
        #expect(abs(decode.width - 1000 * 5000 / 7331) < 1e-9)
        #expect(abs(fonts.width - 1000 * 2331 / 7331) < 1e-9)
        #expect(decode.x == 0)  // the larger sibling first
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func layoutInvariantsOnRandomGraphs(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let names = ["main", "a", "b", "c", "d", "e"]
        var paths: [(names: [String], count: Int, bytes: UInt64)] = []
        for _ in 0..<200 {
            let depth = 1 + Int(generator.next() % 8)
            let path = (0..<depth).map { _ in names[Int(generator.next() % UInt64(names.count))] }
            paths.append((path, 1 + Int(generator.next() % 5), 1 + generator.next() % 100_000))
        }
        let graph = FlameGraph(paths: paths)
        #expect(graph.root.bytes == paths.reduce(0) { $0 + $1.bytes })
        #expect(graph.root.count == paths.reduce(0) { $0 + $1.count })
        Self.checkInvariants(FlameGraph.Layout(graph, width: 1160))
        let pruned = FlameGraph.Layout(graph, width: 1160, minimumWidth: 2)
        Self.checkInvariants(pruned)
        #expect(pruned.rects.dropFirst().allSatisfy { $0.width >= 2 })
    }

    @Test func emptyGraph() {
        let layout = FlameGraph.Layout(FlameGraph(paths: []), width: 100)
        #expect(layout.rects.count == 1)
        #expect(layout.rects[0].width == 0)
    }

    static func containsInOrder(_ line: String, _ cells: [String]) -> Bool {
        var rest = line[...]
        for cell in cells {
            guard let range = rest.range(of: cell) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    /// Nesting is checked exactly on the byte offsets, widths against them with rounding slack.
    static func checkInvariants(_ layout: FlameGraph.Layout, sourceLocation: SourceLocation = #_sourceLocation) {
        let rects = layout.rects
        guard let root = rects.first else { Issue.record("no root"); return }
        #expect(root.parent == nil && root.x == 0 && root.width == layout.totalWidth, sourceLocation: sourceLocation)
        let unit = root.bytes == 0 ? 0 : layout.totalWidth / Double(root.bytes)
        var children: [Int: [FlameGraph.Layout.Rect]] = [:]
        for rect in rects.dropFirst() {
            guard let p = rect.parent else { Issue.record("second root", sourceLocation: sourceLocation); continue }
            let parent = rects[p]
            #expect(rect.depth == parent.depth + 1, sourceLocation: sourceLocation)
            #expect(rect.offset >= parent.offset && rect.offset + rect.bytes <= parent.offset + parent.bytes, sourceLocation: sourceLocation)
            #expect(rect.width <= parent.width, sourceLocation: sourceLocation)
            #expect(rect.count <= parent.count, sourceLocation: sourceLocation)
            #expect(abs(rect.width - Double(rect.bytes) * unit) <= 1e-9 * layout.totalWidth, sourceLocation: sourceLocation)
            #expect(abs(rect.x - Double(rect.offset) * unit) <= 1e-9 * layout.totalWidth, sourceLocation: sourceLocation)
            children[p, default: []].append(rect)
        }
        for (p, siblings) in children {
            let parent = rects[p]
            #expect(siblings.reduce(0) { $0 + $1.bytes } <= parent.bytes, sourceLocation: sourceLocation)
            #expect(siblings.reduce(0) { $0 + $1.width } <= parent.width + 1e-9 * layout.totalWidth, sourceLocation: sourceLocation)
            // Side by side, largest first, without overlap.
            for (left, right) in zip(siblings, siblings.dropFirst()) {
                #expect(left.offset + left.bytes <= right.offset && left.bytes >= right.bytes, sourceLocation: sourceLocation)
            }
        }
    }
}
