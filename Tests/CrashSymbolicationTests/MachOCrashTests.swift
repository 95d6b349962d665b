import CrashReport
import CrashSymbolication
import DevKitTestSupport
import Foundation
import Symbolication
import Testing

/// Crash reports written by the tests whose frames and registers point into the crashy.c
/// Mach-O fixtures: every frame must symbolicate to what llvm-symbolizer says for the same
/// address (return addresses one byte back), images must be found by UUID and a wrong UUID
/// must never be used.
@Suite struct MachOCrashTests {
    static func symbolicator(searchPaths: [String]) -> CrashSymbolicator {
        var options = SymbolicationOptions()
        options.cacheDirectory = nil
        return CrashSymbolicator(resolver: ImageResolver(catalog: ImageCatalog(searchPaths: searchPaths)), options: options)
    }

    /// An arm64 .crash: frame 0 faults in load_model (inlined `field`), frames 1 and 2 return
    /// into controller and start; x1 and x3 point at the selector and message strings.
    static func appleText(_ fixture: FixtureCrash, uuid: String? = nil, imageName: String = "crashy", topFrame: String? = nil) throws -> String {
        // Below objc_msgSend, load_model's frame holds a return address (past its first instruction).
        let frames = [try fixture.runtime("load_model", topFrame == nil ? 0 : 4), try fixture.runtime("controller", 12), try fixture.runtime("start", 16)]
        var lines = """
            Process:             crashy [4242]
            Path:                /private/var/containers/Bundle/Application/ABC/crashy.app/crashy
            Code Type:           ARM-64 (Native)
            OS Version:          iPhone OS 17.1 (21B80)

            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
            Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000018
            Triggered by Thread:  0

            Thread 0 Crashed:

            """
        var index = 0
        if let topFrame {
            lines += "\(index)   libobjc.A.dylib               \t0x00000001a0e20020 \(topFrame) + 32\n"
            index += 1
        }
        for address in frames {
            lines += "\(index)   \(imageName.padding(toLength: 30, withPad: " ", startingAt: 0))\t\(FixtureCrash.padded(address)) \(FixtureCrash.hex(FixtureCrash.loadAddress)) + \(address - FixtureCrash.loadAddress)\n"
            index += 1
        }
        lines += """

            Thread 0 crashed with ARM Thread State (64-bit):
                x0: 0x0000000000000000   x1: \(FixtureCrash.padded(try fixture.runtime("selector_set_title")))   x2: 0x0000000000000000   x3: \(FixtureCrash.padded(try fixture.runtime("missing_model")))
                fp: 0x000000016b2a3a10   lr: \(FixtureCrash.padded(frames[1]))
                sp: 0x000000016b2a3a00   pc: \(FixtureCrash.padded(frames[0])) cpsr: 0x60000000

            Binary Images:
                   0x104f6c000 -        0x104f6ffff \(imageName) arm64  <\(uuid ?? fixture.uuid)> /private/var/containers/Bundle/Application/ABC/crashy.app/crashy
                   0x1a0e10000 -        0x1a0e8ffff libobjc.A.dylib arm64e  <b3d3f41c2a6c3e1c9d0c4b5b7b2f5a3c> /usr/lib/libobjc.A.dylib

            """
        return lines
    }

    static func parse(_ text: String) throws -> CrashReport {
        try CrashReportParser.parse(Array(text.utf8)).report
    }

    /// Each frame's chain (function, line, column) equals llvm-symbolizer's at pc, or pc-1 for return addresses.
    static func expectOracle(_ crash: SymbolicatedCrash, _ fixture: FixtureCrash, thread: Int = 0) throws {
        let frames = crash.threads[thread]
        let logged = crash.report.threads[thread].frames
        var checked = 0
        for (frame, result) in zip(logged, frames) where crash.report.binaryImages[result.imageIndex ?? 0].uuid == fixture.uuid {
            let address = try #require(result.address)
            let lookup = frame.isReturnAddress ? address - 1 : address
            let expected = try fixture.oracle(runtime: lookup)
            let symbols = try #require(result.symbols, "frame \(frame.index) not symbolicated")
            let actual = symbols.frames.map { ($0.function ?? "??", $0.line, $0.column) }
            #expect(actual.map(\.0) == expected.map(\.0), "frame \(frame.index)")
            #expect(actual.map(\.1) == expected.map(\.1), "frame \(frame.index)")
            #expect(actual.map(\.2) == expected.map(\.2), "frame \(frame.index)")
            #expect(symbols.verified)
            checked += 1
        }
        #expect(checked == 3)
    }

    @Test func appleTextFramesMatchLLVMSymbolizer() throws {
        let fixture = try FixtureCrash(arch: "arm64")
        let report = try Self.parse(try Self.appleText(fixture))
        let crash = Self.symbolicator(searchPaths: [FixtureCrash.fixtures.path]).symbolicate(report)
        #expect(crash.images[0].status == .found)
        #expect(crash.images[0].binaryPath == fixture.binary)
        #expect(crash.images[0].symbolsPath == fixture.dwarf)
        #expect(crash.images[1].status == .missing)
        try Self.expectOracle(crash, fixture)
        // The inlined `field` shows as its own frame before load_model.
        #expect(crash.threads[0][0].symbols?.frames.map(\.function) == ["field", "load_model"])
        let messages = crash.decodings.map(\.message)
        #expect(messages.contains("null pointer dereference (offset 0x18), in field at crashy.c:11:12 (inlined into load_model)"))
        #expect(messages.contains("x1 = \(FixtureCrash.hex(try fixture.runtime("selector_set_title"))): \"setTitle:\" (crashy __TEXT,__objc_methname)"))
        #expect(messages.contains("x3 = \(FixtureCrash.hex(try fixture.runtime("missing_model"))): \"Missing model %@\" (crashy __TEXT,__cstring)"))
        let lr = "lr = \(FixtureCrash.hex(try fixture.runtime("controller", 12))): controller + 12 (in crashy"
        #expect(messages.contains { $0.hasPrefix(lr) })
    }

    @Test func objcMsgSendCrashNamesTheSelector() throws {
        let fixture = try FixtureCrash(arch: "arm64")
        let report = try Self.parse(try Self.appleText(fixture, topFrame: "objc_msgSend"))
        let crash = Self.symbolicator(searchPaths: [FixtureCrash.fixtures.path]).symbolicate(report)
        let selector = FixtureCrash.hex(try fixture.runtime("selector_set_title"))
        #expect(crash.decodings.first { $0.rule == "objc.selector" }?.message == "sent selector setTitle: (x1 = \(selector), in crashy __TEXT,__objc_methname)")
    }

    @Test func objcSelectorNeedsTheBinaryNotJustTheDSYM() throws {
        let fixture = try FixtureCrash(arch: "arm64")
        let directory = try TestProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: FixtureCrash.fixtures.appendingPathComponent("crashy-arm64.dSYM"),
                                         to: directory.appendingPathComponent("crashy-arm64.dSYM"))
        let report = try Self.parse(try Self.appleText(fixture, topFrame: "objc_msgSend"))
        let crash = Self.symbolicator(searchPaths: [directory.path]).symbolicate(report)
        #expect(crash.images[0].status == .found)
        #expect(crash.images[0].binaryPath == nil)
        try Self.expectOracle(crash, fixture)
        let selector = FixtureCrash.hex(try fixture.runtime("selector_set_title"))
        #expect(crash.decodings.first { $0.rule == "objc.selector" }?.message
                == "objc_msgSend's selector is in x1 = \(selector), inside crashy, whose binary devkit does not have: give it with --search-path")
    }

    @Test func mismatchedUUIDIsReportedAndNeverUsed() throws {
        let fixture = try FixtureCrash(arch: "arm64")
        let wrong = "0123456789abcdef0123456789abcdef"
        let report = try Self.parse(try Self.appleText(fixture, uuid: wrong, imageName: "crashy-arm64"))
        let crash = Self.symbolicator(searchPaths: [FixtureCrash.fixtures.path]).symbolicate(report)
        #expect(crash.images[0].status == .mismatched(path: fixture.binary, identifier: fixture.uuid))
        #expect(crash.threads[0].allSatisfy { $0.symbols == nil })
        let summary = CrashSummaryRenderer().render(crash)
        #expect(summary.contains("mismatched crashy-arm64 \(wrong): \(fixture.binary) is \(fixture.uuid), not used"))
    }

    @Test func sameFormatRewritesOnlyFrameLines() throws {
        let fixture = try FixtureCrash(arch: "arm64")
        let text = try Self.appleText(fixture)
        let crash = Self.symbolicator(searchPaths: [FixtureCrash.fixtures.path]).symbolicate(try Self.parse(text))
        let output = String(decoding: try SameFormatRenderer().render(crash, original: Array(text.utf8)), as: UTF8.self)
        let original = text.split(separator: "\n", omittingEmptySubsequences: false)
        let rewritten = output.split(separator: "\n", omittingEmptySubsequences: false)
        // One extra line for the inlined `field` frame; everything else kept.
        #expect(rewritten.count == original.count + 1)
        let frameLines = rewritten.filter { $0.contains("\t0x") }
        var expected: [String] = []
        for (position, frame) in crash.report.threads[0].frames.enumerated() {
            let address = try #require(frame.address)
            let chain = try fixture.oracle(runtime: frame.isReturnAddress ? address - 1 : address)
            for (depth, entry) in chain.enumerated() {
                let outermost = depth == chain.count - 1
                let offset = outermost ? " + \(address - (try fixture.runtime(entry.0)))" : ""
                expected.append("\(position)   crashy                        \t\(FixtureCrash.padded(address)) \(entry.0)\(offset) (crashy.c:\(entry.1))\(outermost ? "" : " [inlined]")")
            }
        }
        #expect(frameLines.map(String.init) == expected)
        // The rewritten log reads back with the same threads and images.
        let again = try Self.parse(output)
        #expect(again.binaryImages == crash.report.binaryImages)
        #expect(again.threads[0].frames.count == 4)
    }

    /// `Last Exception Backtrace:` written as `(0x… 0x… 0x…)` on one line becomes a frame list.
    @Test func sameFormatTurnsAnAddressListBacktraceIntoFrames() throws {
        let fixture = try FixtureCrash(arch: "arm64")
        let addresses = [try fixture.runtime("load_model", 4), try fixture.runtime("controller", 12), try fixture.runtime("start", 16)]
        let text = try Self.appleText(fixture).replacingOccurrences(
            of: "Thread 0 Crashed:", with: "Last Exception Backtrace:\n(\(addresses.map(FixtureCrash.hex).joined(separator: " ")))\n\nThread 0 Crashed:")
        let crash = Self.symbolicator(searchPaths: [FixtureCrash.fixtures.path]).symbolicate(try Self.parse(text))
        #expect(crash.report.lastExceptionBacktrace.count == 3)
        let output = String(decoding: try SameFormatRenderer().render(crash, original: Array(text.utf8)), as: UTF8.self)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "Last Exception Backtrace:"))
        var expected: [String] = []
        for (position, frame) in crash.report.lastExceptionBacktrace.enumerated() {
            let address = addresses[position]
            let chain = try fixture.oracle(runtime: frame.isReturnAddress ? address - 1 : address)
            for (depth, entry) in chain.enumerated() {
                let outermost = depth == chain.count - 1
                let offset = outermost ? " + \(address - (try fixture.runtime(entry.0)))" : ""
                expected.append("\(position)   crashy                        \t\(FixtureCrash.padded(address)) \(entry.0)\(offset) (crashy.c:\(entry.1))\(outermost ? "" : " [inlined]")")
            }
        }
        #expect(lines[(start + 1)...].prefix(expected.count).map(String.init) == expected)
    }

    @Test func ipsFramesMatchLLVMSymbolizerAndSameFormatFillsFrames() throws {
        let fixture = try FixtureCrash(arch: "x86_64")
        let load = FixtureCrash.loadAddress
        let offsets = [try fixture.runtime("load_model"), try fixture.runtime("controller", 9), try fixture.runtime("start", 9)].map { $0 - load }
        let header = #"{"app_name":"crashy","bug_type":"309","os_version":"macOS 14.1 (23B74)","name":"crashy"}"#
        let body = """
            {
              "procName" : "crashy", "pid" : 4242, "cpuType" : "X86-64", "faultingThread" : 0,
              "exception" : {"type" : "EXC_BAD_ACCESS", "signal" : "SIGSEGV", "subtype" : "KERN_INVALID_ADDRESS at 0x0000000000000018"},
              "threads" : [{"triggered" : true, "id" : 1,
                "threadState" : {"flavor" : "x86_THREAD_STATE", "rdi" : {"value" : 0}, "rsi" : {"value" : \(try fixture.runtime("selector_reload"))},
                                 "rip" : {"value" : \(load + offsets[0])}},
                "frames" : [\(offsets.map { #"{"imageOffset" : \#($0), "imageIndex" : 0}"# }.joined(separator: ", "))]}],
              "usedImages" : [{"source" : "P", "arch" : "x86_64", "base" : \(load), "size" : 16384, "uuid" : "\(fixture.uuid.uppercased())", "name" : "crashy", "path" : "/Applications/crashy.app/Contents/MacOS/crashy"}]
            }
            """
        let text = header + "\n" + body
        let crash = Self.symbolicator(searchPaths: [FixtureCrash.fixtures.path]).symbolicate(try Self.parse(text))
        #expect(crash.images[0].status == .found)
        try Self.expectOracle(crash, fixture)
        let selector = FixtureCrash.hex(try fixture.runtime("selector_reload"))
        #expect(crash.decodings.map(\.message).contains("rsi = \(selector): \"reloadData\" (crashy __TEXT,__objc_methname)"))

        let same = try SameFormatRenderer().render(crash, original: Array(text.utf8))
        let reread = try CrashReportParser.parse(same).report
        #expect(reread.format == .ips)
        // Three frames plus one inlined frame, each named.
        let frames = reread.threads[0].frames
        let expected = try crash.threads[0].flatMap { result in try #require(result.symbols).frames.map { $0.function ?? "" } }
        #expect(frames.map { $0.symbol ?? "" } == expected)
    }
}
