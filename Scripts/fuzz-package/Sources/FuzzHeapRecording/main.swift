import HeapAnalysis

// libFuzzer entry point; built with -parse-as-library, so no top-level code here.
// A heap recording over arbitrary bytes, through what heapdiff does with it: the reader
// (plain and zstd-compressed records), the replay, every grouping and horizon, the generation
// and leak reports in text, JSON, collapsed stacks and HTML, and the recording compared with
// itself. Any input must give a recording (perhaps with warnings) or a RecordingError, never a
// trap, a hang or an out-of-bounds read (AddressSanitizer).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? RecordingReader.plainRecords(bytes, path: "fuzz.dkheap")
    guard let recording = try? RecordingReader.read(bytes, path: "fuzz.dkheap") else { return 0 }
    let timeline = HeapTimeline(recording)
    let resolver = FrameResolver(recording: recording)
    for key in HeapGroupKey.allCases {
        let grouper = HeapGrouper(resolver: resolver, key: key, depth: 3)
        for horizon in [HeapTimeline.Horizon.end, .nextMark, .peak] {
            let report = HeapReport(recording: recording, timeline: timeline, grouper: grouper, horizon: horizon, top: 5)
            _ = report.textReport
            _ = report.jsonValue
            _ = HeapHTMLReport.render(report) { FlameGraph(blocks: timeline.survivors(of: $0, until: horizon), grouper: grouper) }
            for generation in timeline.generations {
                _ = grouper.collapsedStacks(timeline.survivors(of: generation.index, until: horizon), prefix: "gen")
            }
        }
        let diff = HeapDiff(before: (timeline, grouper), after: (timeline, grouper))
        _ = diff.textReport
        _ = diff.jsonValue
        if let leaks = LeakReport(recording: recording, timeline: timeline, grouper: grouper, top: 5) {
            _ = leaks.textReport
            _ = leaks.jsonValue
            let leaked = LeakReport.split(timeline, scan: leaks.scan).leaked
            _ = HeapHTMLReport.render(leaks, leakedGraphs: [FlameGraph(blocks: leaked, grouper: grouper)])
        }
    }
    return 0
}
