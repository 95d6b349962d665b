import CrashReport
import Dispatch
import Symbolication
import System

/// `devkit symbolicate --group LOG…|DIR`: reads every log (directories walked, files that are
/// no crash log skipped and counted), groups the crashes by signature (`CrashGrouping`), and
/// renders the groups. Logs are read and parsed on every processor, in batches, then grouped
/// on one thread through one `CrashSymbolicator`: each image is opened once for the run, each
/// distinct frame looked up once, and each log read once.
public struct CrashGroupSession {
    public var format: CrashGroupFormat
    /// Directories or files to find the logs' images in, by UUID/build-id (`ImageCatalog`).
    public var searchPaths: [String]
    /// A file to write to instead of standard output.
    public var output: String?
    /// How every image is opened (demangling, debug directories, cache, architecture).
    public var options: SymbolicationOptions
    /// Threads reading and parsing logs.
    public var jobs = Processors.online

    /// Logs read and parsed before they are grouped: enough to keep every thread busy, few
    /// enough that the parsed reports of one batch are all a run holds.
    static let batchSize = 256

    public init(format: CrashGroupFormat, searchPaths: [String], output: String?, options: SymbolicationOptions) {
        self.format = format
        self.searchPaths = searchPaths
        self.output = output
        self.options = options
    }

    /// Groups the logs of `inputs` (files and directories) and writes the result; warnings
    /// go to `diagnostics`, one line each with its newline. Returns the report (its
    /// `unreadable` logs make the run's exit status 2); throws when the output cannot be written.
    public func run(_ inputs: [String], diagnostics: (String) -> Void) throws(FileIOError) -> CrashGroupReport {
        let archiveCache = options.cacheDirectory.map { String($0[..<($0.lastIndex(of: "/") ?? $0.endIndex)]) + "/archives" }
        let catalog = ImageCatalog(searchPaths: searchPaths, archiveCache: archiveCache)
        for problem in catalog.problems { diagnostics("warning: --search-path \(problem)\n") }
        var resolver = ImageResolver(catalog: catalog)
        resolver.debuginfod = options.debuginfod
        let symbolicator = CrashSymbolicator(resolver: resolver, options: options, rules: [])
        symbolicator.memoizesLookups = true

        var unreadable: [CrashGroupReport.UnreadableLog] = []
        func fail(_ file: String, line: Int?, _ message: String) {
            unreadable.append(.init(file: file, line: line, message: message))
            diagnostics("\(file):\(line.map { "\($0):" } ?? "") warning: \(message); not grouped\n")
        }
        var candidates: [Candidate] = []
        for input in inputs {
            switch DirectoryWalk.type(of: input) {
            case .directory:
                let walk = DirectoryWalk.files(under: input, descend: { _ in true }, include: { _ in true })
                for error in walk.errors { fail(error.path, line: nil, error.reason) }
                candidates += walk.files.map { Candidate(path: $0, named: false) }
            default:
                candidates.append(Candidate(path: input, named: true))
            }
        }

        var grouping = CrashGrouping()
        var skipped = 0
        let batches = stride(from: 0, to: candidates.count, by: Self.batchSize).map {
            Array(candidates[$0..<min(candidates.count, $0 + Self.batchSize)])
        }
        // The next batch is read and parsed while this one is grouped, so grouping (one
        // thread) does not leave the other processors idle.
        let jobs = jobs
        var parsed = batches.first.map { ParallelMap.map($0, jobs: jobs, chunksPerJob: 4, Self.read) } ?? []
        for (number, batch) in batches.enumerated() {
            let ahead = Ahead()
            let pending = DispatchGroup()
            if number + 1 < batches.count {
                let next = batches[number + 1]
                DispatchQueue.global().async(group: pending) { ahead.outcomes = ParallelMap.map(next, jobs: jobs, chunksPerJob: 4, Self.read) }
            }
            defer {
                pending.wait()
                parsed = ahead.outcomes
            }
            for (candidate, outcome) in zip(batch, parsed) {
                switch outcome {
                case .skipped(let reason):
                    // A file named on the command line was meant as a log: say why it is not one.
                    if candidate.named { fail(candidate.path, line: nil, reason) } else { skipped += 1 }
                case .failed(let line, let message):
                    fail(candidate.path, line: line, message)
                case .parsed(let document):
                    for warning in document.warnings {
                        diagnostics("\(candidate.path):\(warning.line.map { "\($0):" } ?? "") warning: \(warning.message)\n")
                    }
                    for warning in grouping.add(document.report, path: candidate.path, symbolicator: symbolicator) {
                        diagnostics("\(candidate.path): warning: \(warning)\n")
                    }
                }
            }
        }
        let report = CrashGroupReport(groups: grouping.groups(symbolicator: symbolicator), logs: grouping.logs,
                                      skipped: skipped, unreadable: unreadable)
        let bytes: [UInt8] = switch format {
        case .text: Array(CrashGroupTextRenderer().render(report).utf8)
        case .json: CrashGroupJSONRenderer().render(report)
        case .html: Array(CrashGroupHTMLRenderer().render(report).utf8)
        }
        if let output {
            try FileIO.writeAtomically(bytes, to: output)
        } else {
            // A closed pipe is not worth an error: the report was made, its reader left.
            try? FileIO.writeStandardOutput(bytes)
        }
        return report
    }

    /// The outcomes of the batch read ahead, written by its one task before `wait()` returns.
    private final class Ahead: @unchecked Sendable {
        var outcomes: [Outcome] = []
    }

    /// A file to read: named on the command line, or found under a directory given.
    struct Candidate: Sendable {
        var path: String
        var named: Bool
    }

    /// One file, read and parsed.
    enum Outcome: Sendable {
        /// No crash log devkit groups (by content), with the reason for a file named.
        case skipped(String)
        /// A crash log that could not be read or parsed.
        case failed(line: Int?, message: String)
        case parsed(CrashReportDocument)
    }

    /// Binary files a directory of logs may also hold (dSYMs, binaries, archives, cores): known
    /// by their first bytes, so they are skipped without being read whole.
    static func isBinary(_ prefix: [UInt8]) -> Bool {
        let magics: [[UInt8]] = [[0x7F, 0x45, 0x4C, 0x46], [0xCF, 0xFA, 0xED, 0xFE], [0xCE, 0xFA, 0xED, 0xFE], [0xFE, 0xED, 0xFA, 0xCF],
                                 [0xFE, 0xED, 0xFA, 0xCE], [0xCA, 0xFE, 0xBA, 0xBE], [0xBE, 0xBA, 0xFE, 0xCA], [0x50, 0x4B, 0x03, 0x04]]
        return magics.contains { prefix.starts(with: $0) }
    }

    @Sendable static func read(_ candidate: Candidate) -> Outcome {
        let bytes: [UInt8]
        do {
            guard let contents = try FileIO.read(candidate.path, kind: .crashLog, unlessPrefix: 4, matches: isBinary) else {
                return .skipped("a binary file (core dump, object file or archive), not a crash log; core dumps are not grouped")
            }
            bytes = contents
        } catch {
            return .failed(line: nil, message: error.reason)
        }
        guard let format = CrashReportParser.recognizedFormat(bytes) else {
            return .skipped("not a crash log devkit groups (.crash, .ips, MetricKit, KSCrash, Swift backtrace, sanitizer report)")
        }
        do {
            return .parsed(try CrashReportParser.parse(bytes, as: format))
        } catch {
            return .failed(line: error.line, message: error.message)
        }
    }
}
