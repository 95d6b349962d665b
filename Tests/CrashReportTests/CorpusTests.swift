import CrashReport
import Foundation
import Testing

/// Every crash log in ../shared/corpus/crash against a golden summary in Snapshots/
/// (RECORD_SNAPSHOTS=1 re-records). Files the parser refuses have their error as golden.
@Suite struct CrashCorpusTests {
    static let corpus = "../shared/corpus/crash"

    static let files: [String] = {
        guard isDirectory(corpus), let walker = FileManager.default.enumerator(atPath: corpus) else {
            print("skipped: ../shared/corpus not present")
            return []
        }
        return walker.compactMap { $0 as? String }
            .filter { !$0.hasSuffix(".md") && !isDirectory("\(corpus)/\($0)") }
            .sorted()
    }()

    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    @Test(arguments: files)
    func goldenSummary(_ file: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.corpus)/\(file)")))
        let actual: String
        do {
            let document = try CrashReportParser.parse(bytes)
            actual = document.report.summary()
                + document.warnings.map { "warning: \($0)\n" }.joined()
        } catch {
            actual = "error: \(error)\n"
        }
        let snapshot = Self.snapshots.appendingPathComponent(file.replacingOccurrences(of: "/", with: "_") + ".txt")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try FileManager.default.createDirectory(at: Self.snapshots, withIntermediateDirectories: true)
            try actual.write(to: snapshot, atomically: true, encoding: .utf8)
            Issue.record("recorded \(snapshot.lastPathComponent); run again without RECORD_SNAPSHOTS")
            return
        }
        guard let expected = try? String(contentsOf: snapshot, encoding: .utf8) else {
            Issue.record("missing snapshot \(snapshot.lastPathComponent) (run with RECORD_SNAPSHOTS=1)")
            return
        }
        #expect(actual == expected, "\(file)")
    }

    /// Logs that list threads (a `Thread N` line, a `"threads"` member) must yield them, and a
    /// crashed thread must be one of them. Logs the parser refuses are covered by their golden.
    @Test(arguments: files)
    func threadsAreFound(_ file: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.corpus)/\(file)")))
        guard let report = try? CrashReportParser.parse(bytes).report else { return }
        let text = String(decoding: bytes, as: UTF8.self)
        let isJSON = report.format == .ips || text.contains("\"kind\": \"crashReport\"")
        let listsThreads = isJSON ? text.contains("\"threads\"") : text.split(separator: "\n").contains { $0.drop(while: { $0 == " " }).hasPrefix("Thread ") }
        #expect(report.threads.isEmpty == !listsThreads)
        if let crashed = report.crashedThread, !report.threads.isEmpty {
            #expect(report.threads.contains { $0.index == crashed && $0.crashed })
        }
    }
}
