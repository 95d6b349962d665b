import CrashReport
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// MetricKit JSON: detection, frame order (root = innermost, subFrames = callers), images by
/// UUID, the payload's several diagnostics, sampled trees, metadata, and hostile input.
@Suite struct MetricKitReaderTests {
    static func frame(_ uuid: String, _ name: String, _ offset: Int, address: Int? = nil, sub: String = "") -> String {
        let addressField = address.map { #", "address": \#($0)"# } ?? ""
        let subFrames = sub.isEmpty ? "" : #", "subFrames": [\#(sub)]"#
        return #"{"binaryUUID": "\#(uuid)", "binaryName": "\#(name)", "offsetIntoBinaryTextSegment": \#(offset)\#(addressField)\#(subFrames)}"#
    }

    static let app = "70B89F27-1634-3580-A695-57CDB41D7743"
    static let dyld = "77A62F2E-8212-30F3-84C1-E8497440ACF8"

    /// Apple's documented example shape: the app frame is the root, libdyld its sub-frame.
    static let chain = frame(app, "MetricKitTestApp", 165304, address: 7170766264,
                             sub: frame(dyld, "libdyld.dylib", 6948, address: 7170808612))

    static func parse(_ text: String) throws -> CrashReportDocument {
        try CrashReportParser.parse(Array(text.utf8))
    }

    @Test func aLoneCallStackTreeReadsRootAsInnermostFrame() throws {
        let text = #"{"callStackTree": {"callStackPerThread": true, "callStacks": [{"threadAttributed": true, "callStackRootFrames": [\#(Self.chain)]}]}}"#
        #expect(CrashReportParser.detectFormat(Array(text.utf8)) == .metricKit)
        let document = try Self.parse(text)
        let report = document.report
        #expect(document.warnings.isEmpty)
        #expect(report.kind == "MetricKit call stack tree")
        #expect(report.crashedThread == 0)
        let frames = try #require(report.threads.first).frames
        #expect(frames.map(\.imageName) == ["MetricKitTestApp", "libdyld.dylib"])
        #expect(frames.map(\.imageOffset) == [165304, 6948])
        #expect(frames.map(\.isReturnAddress) == [false, true])
        #expect(report.binaryImages.map(\.uuid) == ["70b89f2716343580a69557cdb41d7743", "77a62f2e821230f384c1e8497440acf8"])
        // address − offset: the load address, page-aligned in Apple's example.
        #expect(report.binaryImages.map(\.loadAddress) == [7170766264 - 165304, 7170808612 - 6948])
        #expect(report.binaryImages.allSatisfy { $0.loadAddress! % 4096 == 0 })
    }

    @Test func aPayloadReadsEveryDiagnosticAndTheCrashSaysWhatHappened() throws {
        let stack = #"{"callStackPerThread": true, "callStacks": [{"threadAttributed": true, "callStackRootFrames": [\#(Self.chain)]}]}"#
        let text = """
            {"timeStampBegin": "2026-11-24", "hangDiagnostics": [{"callStackTree": \(stack), "diagnosticMetaData": {"hangDuration": "3.2 sec"}}],
             "crashDiagnostics": [{"callStackTree": \(stack), "diagnosticMetaData": {"exceptionType": 1, "exceptionCode": 1, "signal": 11,
               "osVersion": "iPhone OS 17.1 (21B80)", "platformArchitecture": "arm64e", "deviceType": "iPhone14,2", "appVersion": "1.0",
               "appBuildVersion": "7", "terminationReason": "Namespace SIGNAL, Code 0xb",
               "virtualMemoryRegionInfo": "0x18 is not in any region."}}]}
            """
        let report = try Self.parse(text).report
        #expect(report.format == .metricKit)
        #expect(report.kind == "MetricKit crash diagnostic")
        #expect(report.exception?.type == "EXC_BAD_ACCESS")
        #expect(report.exception?.signal == "SIGSEGV")
        #expect(report.exception?.codes == "0x1")
        #expect(report.exception?.faultAddress == 0x18)
        #expect(report.terminationReason == "Namespace SIGNAL, Code 0xb")
        #expect(report.facts == ["device: iPhone14,2", "app version: 1.0 (7)", "payload: 1 crash, 1 hang diagnostics; every call stack is a thread"])
        #expect(report.threads.map(\.name) == ["crash 0 call stack 0", "hang 0 call stack 0"])
        // The crash's attributed stack is the crashed thread, not the hang's.
        #expect(report.threads.map(\.crashed) == [true, false])
        // One image per UUID however many diagnostics use it.
        #expect(report.binaryImages.count == 2)
    }

    @Test func aHangAloneIsNamedWithItsDuration() throws {
        let text = #"{"callStackTree": {"callStacks": [{"threadAttributed": true, "callStackRootFrames": [\#(Self.chain)]}]}, "diagnosticMetaData": {"hangDuration": "3.2 sec", "appVersion": "1.0"}}"#
        let report = try Self.parse(text).report
        #expect(report.kind == "MetricKit hang diagnostic (hang duration 3.2 sec)")
        #expect(report.summary().contains("kind: MetricKit hang diagnostic (hang duration 3.2 sec)\n"))
    }

    @Test func aSampledTreeGivesOneStackPerLeafToRootPath() throws {
        let callers = Self.frame(Self.app, "App", 200, sub: Self.frame(Self.app, "App", 300)) + ", " + Self.frame(Self.app, "App", 300)
        let text = #"{"callStackTree": {"callStacks": [{"threadAttributed": true, "callStackRootFrames": [\#(Self.frame(Self.app, "App", 100, sub: callers))]}]}, "diagnosticMetaData": {"totalCPUTime": "90 sec"}}"#
        let report = try Self.parse(text).report
        #expect(report.kind == "MetricKit CPU exception diagnostic (total CPU time 90 sec)")
        #expect(report.threads.map { $0.frames.compactMap(\.imageOffset) } == [[100, 200, 300], [100, 300]])
        #expect(report.threads.map(\.name) == ["call stack 0 path 0", "call stack 0 path 1"])
        // Frames without `address` keep no runtime address: symbolication goes by offset.
        #expect(report.threads[0].frames.allSatisfy { $0.address == nil })
    }

    @Test func framesThatDisagreeOnTheLoadAddressKeepTheOffset() throws {
        let text = #"{"callStackTree": {"callStacks": [{"threadAttributed": true, "callStackRootFrames": [\#(Self.frame(Self.app, "App", 0x100, address: 0x10000_0100, sub: Self.frame(Self.app, "App", 0x200, address: 0x20000_0200)))]}]}}"#
        let document = try Self.parse(text)
        #expect(document.report.threads[0].frames.map(\.address) == [0x10000_0100, 0x10000_0200])
        #expect(document.warnings.count == 1)
        #expect(document.warnings.first?.message.contains("the offset is used") == true)
    }

    @Test func wrongTypesInsideAreWarnedAndSkipped() throws {
        let text = #"{"crashDiagnostics": [5, {"callStackTree": {"callStacks": [{"callStackRootFrames": "x"}, {"threadAttributed": true, "callStackRootFrames": [\#(Self.chain), "frame"]}]}}], "hangDiagnostics": {}}"#
        let document = try Self.parse(text)
        #expect(document.report.threads.count == 1)
        #expect(document.warnings.map(\.message) == [
            "crashDiagnostics[0] is a integer, not an object",
            "hangDiagnostics is a dict, not an array",
            "callStacks[0].callStackRootFrames is a string, not an array",
            "callStacks[1] frame 0 is a string, not an object",
        ])
    }

    @Test(arguments: [
        (#"{"callStackTree": {"callStacks": [{"callStackRootFrames": [{"binaryUUID": "A""#, "the MetricKit JSON is not valid JSON at column 78: unexpected end of input"),
        (#"{"crashDiagnostics": 3}"#, "no MetricKit diagnostic found (crashDiagnostics, hangDiagnostics, cpuExceptionDiagnostics, diskWriteExceptionDiagnostics, callStackTree)"),
    ])
    func hostileInputIsOneError(_ text: String, _ message: String) throws {
        #expect(CrashReportParser.detectFormat(Array(text.utf8)) == .metricKit)
        let error = try #require(throws: CrashReportError.self) { try Self.parse(text) }
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

    /// A call stack of `depth` frames nested as MetricKit nests them (each caller in its
    /// callee's `subFrames`): the app's function recursing, `dyld`'s `start` outermost.
    static func recursion(depth: Int) -> String {
        var text = #"{"callStackTree": {"callStacks": [{"threadAttributed": true, "callStackRootFrames": ["#
        for index in 0..<(depth - 1) {
            text += #"{"binaryUUID": "\#(app)", "binaryName": "App", "offsetIntoBinaryTextSegment": \#(4096 + index % 3 * 16), "subFrames": ["#
        }
        text += #"{"binaryUUID": "\#(dyld)", "binaryName": "libdyld.dylib", "offsetIntoBinaryTextSegment": 6948}"#
        return text + String(repeating: "]}", count: depth - 1) + "]}]}}"
    }

    /// Parses `text` on a thread with a 256 KiB stack (a fraction of what a recursive walk or
    /// release of thousands of levels needs), so recursion anywhere shows as a crash.
    static func parseOnSmallStack(_ text: String) -> Result<CrashReportDocument, CrashReportError> {
        let job = SmallStackJob(text)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 256 << 10)
        var thread = pthread_t()
        let started = pthread_create(&thread, &attributes, { raw in
            let job = Unmanaged<SmallStackJob>.fromOpaque(raw!).takeRetainedValue()
            job.result = Result(catching: { () throws(CrashReportError) in try CrashReportParser.parse(Array(job.text.utf8)) })
            return nil
        }, Unmanaged.passRetained(job).toOpaque())
        precondition(started == 0)
        pthread_join(thread, nil)
        pthread_attr_destroy(&attributes)
        return job.result!
    }

    final class SmallStackJob: @unchecked Sendable {
        let text: String
        var result: Result<CrashReportDocument, CrashReportError>?
        init(_ text: String) { self.text = text }
    }

    @Test func deepRecursionReadsWholeWithoutRecursion() throws {
        let text = Self.recursion(depth: 2000)
        let outcome = Self.parseOnSmallStack(text)
        let document = try outcome.get()
        #expect(document.warnings.isEmpty, "\(document.warnings.map(\.message))")
        let frames = try #require(document.report.threads.first).frames
        #expect(frames.count == 2000)
        #expect(frames.map(\.index) == Array(0..<2000))
        #expect(frames.last?.imageName == "libdyld.dylib")
        #expect(frames.dropLast().allSatisfy { $0.imageName == "App" })
        #expect(document.report.binaryImages.count == 2)
    }

    @Test func stacksAtTheFrameLimitReadAndDeeperAreCut() throws {
        // The reader's depth allows a few frames more than maxFramesPerThread; the path is cut there.
        let limit = CrashReportLimits.maxFramesPerThread
        let document = try Self.parseOnSmallStack(Self.recursion(depth: limit + 2)).get()
        #expect(document.report.threads.first?.frames.count == limit)
        #expect(document.warnings.map(\.message) == ["callStacks[0]: a stack deeper than \(limit) frames is cut"])
    }

    @Test func hostileNestingIsRefusedCleanly() throws {
        // Open brackets without end: refused at the reader's bound, nothing recursed.
        let open = #"{"callStackTree": "# + String(repeating: "[", count: 1_000_000)
        let error = try #require(Self.parseOnSmallStack(open).failure)
        #expect(error.message.contains("nest deeper than \(2 * CrashReportLimits.maxFramesPerThread + 16) levels"), "\(error.message)")
        // A finished value nested almost to the bound, then a syntax error: the open
        // containers' deep children are freed level by level.
        let depth = 2 * CrashReportLimits.maxFramesPerThread
        let closed = #"{"callStackTree": ["# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + " x"
        let second = try #require(Self.parseOnSmallStack(closed).failure)
        #expect(second.message.contains("not valid JSON"), "\(second.message)")
        // Deep arrays read whole that are not frames: no stack, and freed without recursion.
        let arrays = #"{"callStackTree": {"callStacks": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
        let third = try Self.parseOnSmallStack(arrays).get()
        #expect(third.report.threads.isEmpty)
    }

    @Test func callStacksBeyondTheThreadLimitAreWarnedOnceAndDropped() throws {
        let stack = #"{"threadAttributed": false, "callStackRootFrames": [\#(Self.frame(Self.app, "App", 1))]}"#
        let diagnostic = #"{"callStackTree": {"callStacks": [\#(Array(repeating: stack, count: 3000).joined(separator: ","))]}}"#
        let text = #"{"crashDiagnostics": [\#(diagnostic), \#(diagnostic)], "hangDiagnostics": [\#(diagnostic)]}"#
        let document = try Self.parse(text)
        #expect(document.report.threads.count == CrashReportLimits.maxThreads)
        #expect(document.warnings.map(\.message) == ["more than 4096 call stacks; only the first 4096 are read"])
        #expect(document.report.binaryImages.count == 1)
    }

    @Test func anIPSHeaderIsStillIPSWhateverItsBodySays() {
        let text = #"{"bug_type": "309"}"# + "\n" + #"{"callStackTree": {}, "binary_images": []}"#
        #expect(CrashReportParser.detectFormat(Array(text.utf8)) == .ips)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
