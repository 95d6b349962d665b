import Foundation
import FrameModel
import HeapAnalysis
import HeapTestSupport
import Testing

/// heapdiff's front end on a real recording: mapped or piped it reports the same, and each
/// way it can fail gives one line naming the file.
@Suite(.serialized) struct HeapdiffSessionTests {
    static func session(_ options: HeapdiffSession.Options = .init()) -> (HeapdiffSession, () -> [String]) {
        final class Lines: @unchecked Sendable { var lines: [String] = [] }
        let warnings = Lines()
        let session = HeapdiffSession(options: options, symbolizer: nil, progress: HeapdiffProgress(enabled: false)) {
            warnings.lines.append($0)
        }
        return (session, { warnings.lines })
    }

    @Test func mappedRecordingReportsLikeOneReadIntoMemory() throws {
        let (run, recording) = try HeapFixture.workload("small")
        let (session, warnings) = Self.session(.init(groupBy: .function, top: 5))
        let text = String(decoding: try session.report(run.recordingPath, as: .text), as: UTF8.self)
        let timeline = HeapTimeline(recording)
        let grouper = HeapGrouper(resolver: FrameResolver(recording: recording), key: .function)
        #expect(text == HeapReport(recording: recording, timeline: timeline, grouper: grouper, horizon: .end, top: 5).textReport)
        #expect(warnings().isEmpty)
        let page = String(decoding: try session.report(run.recordingPath, as: .html), as: UTF8.self)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
    }

    /// Records what the session asks of it: the modules prepared, then those asked about.
    final class ListeningSymbolizer: HeapSymbolizer, @unchecked Sendable {
        var prepared: [String] = [], asked: [String] = []
        func prepare(_ modules: [ModuleMapping]) { prepared += modules.map(\.path) }
        func frames(in module: ModuleMapping, fileAddress: UInt64) -> [SymbolicatedFrame] {
            asked.append(module.path)
            return []
        }
        func symbolName(in module: ModuleMapping, fileAddress: UInt64) -> String? { nil }
    }

    @Test(arguments: [(HeapGroupKey.site, HeapdiffSession.Format.text), (.function, .json), (.site, .collapsed), (.library, .text)])
    func modulesAreReadAheadOfTheReportThatNamesTheirFrames(key: HeapGroupKey, format: HeapdiffSession.Format) throws {
        let (run, _) = try HeapFixture.workload("leaks")
        let symbolizer = ListeningSymbolizer()
        let session = HeapdiffSession(options: .init(groupBy: key, depth: 2), symbolizer: symbolizer,
                                      progress: HeapdiffProgress(enabled: false)) { _ in }
        _ = try session.report(run.recordingPath, as: format)
        if key == .library {
            #expect(symbolizer.prepared.isEmpty && symbolizer.asked.isEmpty)
        } else {
            #expect(symbolizer.prepared.contains { $0.hasSuffix("/workload") })
            #expect(Set(symbolizer.asked).isSubset(of: Set(symbolizer.prepared)))
            #expect(symbolizer.prepared.count == Set(symbolizer.prepared).count)
        }
    }

    @Test func aPipeIsReadInsteadOfMapped() throws {
        let (run, _) = try HeapFixture.workload("small")
        let fifo = try HeapFixture.temporaryDirectory().appendingPathComponent("recording.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: run.recordingPath))
        let writer = Thread { FileHandle(forWritingAtPath: fifo)?.write(bytes) }
        writer.start()
        let (session, _) = Self.session()
        let piped = try session.report(fifo, as: .collapsed)
        #expect(piped == (try session.report(run.recordingPath, as: .collapsed)))
        #expect(!piped.isEmpty)
    }

    @Test func failuresAreOneLineNamingTheFile() throws {
        let directory = try HeapFixture.temporaryDirectory()
        let notRecording = directory.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: notRecording)
        let (session, _) = Self.session()
        let missing = #expect(throws: HeapdiffError.self) { try session.report(directory.path + "/nope.dkheap", as: .text) }
        #expect(missing?.message == "\(directory.path)/nope.dkheap: error: No such file or directory")
        let folder = #expect(throws: HeapdiffError.self) { try session.report(directory.path, as: .text) }
        #expect(folder?.message == "\(directory.path): error: is a directory")
        let wrong = #expect(throws: HeapdiffError.self) { try session.report(notRecording.path, as: .text) }
        #expect(wrong?.message.hasPrefix("\(notRecording.path): offset 0x0: error: ") == true)
        let (run, _) = try HeapFixture.workload("small")
        let (leaks, _) = Self.session(.init(leaks: true))
        let noScan = #expect(throws: HeapdiffError.self) { try leaks.report(run.recordingPath, as: .text) }
        #expect(noScan?.message.hasPrefix("\(run.recordingPath): error: the recording has no exit scan") == true)
    }
}
