import Foundation
@testable import HeapAnalysis
import HeapSymbolication
import HeapTestSupport
import Testing

/// Issue 15 §5: a recording of thousands of generations, made at test time by a C program
/// that marks a generation after every allocation. Each block is looked at once for the
/// whole report (not once per generation), and the page draws and lists a bounded number.
@Suite(.serialized) struct ManyGenerationsTests {
    static let generationCount = 3_000

    static let recorded: Result<HeapRecording, any Error> = Result {
        guard let cc = HeapFixture.compiler() else { throw HeapFixture.FixtureError(message: "no C compiler") }
        let directory = try HeapFixture.temporaryDirectory()
        let header = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/HeapRecorder/include").standardized.path
        let source = directory.appendingPathComponent("many.c")
        try """
            #include <stdlib.h>
            #include "devkit_heap.h"
            int main(void) {
                for (int i = 0; i < \(generationCount); i++) {
                    void *volatile kept = malloc(16 + (i % 7) * 16);
                    (void)kept;
                    devkit_heap_mark_generation("g");
                }
                return 0;
            }
            """.write(to: source, atomically: true, encoding: .utf8)
        let program = directory.appendingPathComponent("many").path
        let build = try HeapFixture.run(cc, ["-g", "-O0", "-I", header, source.path, "-o", program])
        guard build.status == 0 else { throw HeapFixture.FixtureError(message: "cc failed: \(build.stderr)") }
        let run = try HeapFixture.record(program, [], name: "many")
        guard run.status == 0 else { throw HeapFixture.FixtureError(message: "record failed: \(run.stderr)") }
        return try HeapFixture.load(run.recordingPath)
    }

    @Test func eachBlockIsLookedAtOnceForAllGenerations() throws {
        let timeline = HeapTimeline(try Self.recorded.get())
        #expect(timeline.generations.count > Self.generationCount)
        // The ranges the survivors come from tile `blocks`: one pass over all generations.
        var examined = 0
        var expectedStart = 0
        for g in timeline.generations {
            let range = timeline.blockRange(of: g.index)
            #expect(range.lowerBound == expectedStart)
            expectedStart = range.upperBound
            examined += range.count
        }
        #expect(examined == timeline.blocks.count)
        // And they are the survivors a filter over every block finds.
        for g in stride(from: 0, to: timeline.generations.count, by: 97) {
            let brute = timeline.blocks.filter { $0.generation == g && $0.isAliveAtEnd }
            #expect(timeline.survivors(of: g, until: .end) == brute)
        }
    }

    @Test func thePageDrawsAndListsABoundedNumberOfGenerations() throws {
        let recording = try Self.recorded.get()
        let timeline = HeapTimeline(recording)
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording), key: .function)
        let report = HeapReport(recording: recording, timeline: timeline, grouper: grouper, horizon: .end, top: 5)
        var graphsAsked = 0
        let html = String(decoding: HeapHTMLReport.render(report) { index in
            graphsAsked += 1
            return FlameGraph(blocks: timeline.survivors(of: index, until: .end), grouper: grouper)
        }, as: UTF8.self)
        #expect(graphsAsked == HeapHTMLReport.maximumDrawnGenerations)
        #expect(html.components(separatedBy: "<section id=\"gen-").count - 1 == HeapHTMLReport.maximumDrawnGenerations)
        let rows = html.components(separatedBy: "<tr><td class=\"n\">").count - 1
        // Generation rows, plus the groups alive at the peak.
        #expect(rows <= HeapHTMLReport.maximumTableRows + HeapHTMLReport.maximumDrawnGenerations + report.peak.groups.count)
        #expect(html.contains("more generations not listed"))
        #expect(html.components(separatedBy: "<g class=\"mark\">").count - 1 <= LiveBytesChart.maximumDrawnMarks)
        #expect(html.contains("more generations not drawn"))
        // The drawn ones are those with the most bytes (112 B, the largest size made).
        let drawn = HeapHTMLReport.drawnGenerations(report)
        #expect(drawn.allSatisfy { report.generations[$0].survivorBytes == 112 })
        guard let page = try HTMLStructure.parse(html) else { return }
        #expect(page.errors == [])
    }

    @Test func deepStacksAreCutToTheMaximumDepth() {
        let paths = (0..<300).map { stack in
            (names: (0..<4_096).map { "f\($0 % 64)_\(stack % 3)" }, count: 1, bytes: UInt64(stack + 1))
        }
        let graph = FlameGraph(paths: paths)
        func depthAndCount(_ node: FlameGraph.Node) -> (Int, Int) {
            var depth = 0, count = 1
            for child in node.children {
                let (d, c) = depthAndCount(child)
                depth = max(depth, d + 1)
                count += c
            }
            return (depth, count)
        }
        let (depth, nodes) = depthAndCount(graph.root)
        #expect(depth == FlameGraph.maximumDepth)
        #expect(nodes <= 1 + 3 * FlameGraph.maximumDepth)
        #expect(graph.root.children.map(\.name) == [FlameGraph.elidedFramesName])
        #expect(graph.root.bytes == (1...300).reduce(0) { $0 + UInt64($1) })
    }
}
