import CrashReport
import Foundation
import Testing

/// Damaged and hostile input for the Swift backtrace, sanitizer and address-list readers:
/// partial reports or errors with lines, never a trap or a hang.
@Suite struct LinuxReportHostileInputTests {
    static let swiftText = """
        crashdemo/main.swift:12: Fatal error: Something went badly wrong

        *** Signal 11: Backtracing from 0x55aac37dc964... done ***

        *** Program crashed: Bad pointer dereference at 0x0000000000000004 ***

        Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))

        Thread 0 "crashdemo" crashed:

          0      0x000055aac37dc964 level3(_:) + 180 in crashdemo at /src/CrashDemo/main.swift:3:13
          1 [ra] 0x000055aac37dc25b level2(_:) + 58 in crashdemo at /src/CrashDemo/main.swift:6:39
        ...

        Registers:

        rax 0x0000000000000004  4
        cs 0x0033  fs 0x0000  gs 0x0000

        Images (14 omitted):

        0x000055aac37db000\u{2013}0x000055aac37dcca8 1d689bf0ee74eab31c84853acb400cb74bacacff crashdemo /src/CrashDemo/crashdemo

        Backtrace took 0.00s

        """

    static let swiftJSON = """

        *** Signal 11: Backtracing from 0x55c350727964... done ***

        { "timestamp": "2026-11-22T22:11:02.753554Z", "kind": "crashReport", "description": "Bad pointer dereference", "faultAddress": "0x0000000000000004", "platform": "Linux (Debian GNU/Linux 12 (bookworm))", "architecture": "x86_64", "threads": [ { "name": "crashdemo", "crashed": true, "registers": {"rax": "0x0000000000000004"}, "frames": [ { "kind": "programCounter", "address": "0x000055c350727964", "symbol": "$s9crashdemo6level3yS2iF", "offset": 180, "description": "level3(_:) + 180", "image": "crashdemo", "sourceLocation": { "file": "/src/CrashDemo/main.swift", "line": 3, "column": 13 } }, { "kind": "returnAddress", "address": "0x000055c35072725b" }, { "kind": "truncated" } ] } ], "omittedImages": 14, "images": [ { "name": "crashdemo", "buildId": "1d689bf0ee74eab31c84853acb400cb74bacacff", "path": "/src/CrashDemo/crashdemo", "baseAddress": "0x000055c350726000", "endOfText": "0x000055c350727ca8" } ] , "backtraceTime": 0.0018 }

        """

    static let sanitizer = """
        =================================================================
        ==14929==ERROR: AddressSanitizer: heap-use-after-free on address 0x7c15dcfe0014 at pc 0x561df9abad6d bp 0x7fff1ed6e5d0 sp 0x7fff1ed6e5c8
        READ of size 4 at 0x7c15dcfe0014 thread T0
            #0 0x561df9abad6c in main /tmp/sb/uaf.c:5:10
            #1 0x7ff5ddc7b249  (/lib/x86_64-linux-gnu/libc.so.6+0x27249) (BuildId: 93ac61ec5a8eb1396f9fbd350e3169a558528a40)

        freed by thread T0 here:
            #0 0x561df9a746d6 in free /llvm/asan_malloc_linux.cpp:51:3

        SUMMARY: AddressSanitizer: heap-use-after-free /tmp/sb/uaf.c:5:10 in main

        """

    static let addresses = "# list\n0 0x1000\n1 0x2000\n2 0x3000\n"

    static let samples: [(String, String, CrashReport.Format)] = [
        ("swift-text", swiftText, .swiftBacktrace),
        ("swift-json", swiftJSON, .swiftBacktrace),
        ("sanitizer", sanitizer, .sanitizer),
        ("address-list", addresses, .addressList),
    ]

    @Test func samplesReadWithoutWarnings() throws {
        for (name, text, format) in Self.samples {
            #expect(CrashReportParser.detectFormat(Array(text.utf8)) == format, "\(name)")
            let document = try CrashReportParser.parse(Array(text.utf8))
            #expect(document.report.format == format, "\(name)")
            #expect(document.warnings.isEmpty, "\(name): \(document.warnings)")
            #expect(document.report.threads.first?.frames.count ?? 0 >= 2, "\(name)")
        }
        let json = try CrashReportParser.parse(Array(Self.swiftJSON.utf8)).report
        #expect(json.exception?.signal == "SIGSEGV" && json.exception?.faultAddress == 4)
        #expect(json.threads[0].frames.map(\.isReturnAddress) == [false, true])
        #expect(json.threads[0].frames[0].sourceLocation == "/src/CrashDemo/main.swift:3:13")
        #expect(json.threads[0].frames[1].imageOffset == 0x125b && json.threads[0].frames[1].imageName == "crashdemo")
        #expect(json.binaryImages.first?.uuid == "1d689bf0ee74eab31c84853acb400cb74bacacff")
        let text = try CrashReportParser.parse(Array(Self.swiftText.utf8)).report
        #expect(text.applicationSpecificInformation == ["crashdemo/main.swift:12: Fatal error: Something went badly wrong"])
        #expect(text.threads[0].registers.map(\.name) == ["rax", "cs", "fs", "gs"])
    }

    /// Every prefix of every sample: read or refused, never a trap.
    @Test func everyTruncation() {
        for (_, text, format) in Self.samples {
            let bytes = Array(text.utf8)
            for length in 0...bytes.count {
                let prefix = Array(bytes.prefix(length))
                _ = try? CrashReportParser.parse(prefix)
                _ = try? CrashReportParser.parse(prefix, as: format)
            }
        }
    }

    @Test func megabyteLine() throws {
        let long = String(repeating: "A", count: 1 << 20)
        for (name, text, format) in Self.samples where format != .addressList {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let target = try #require(lines.firstIndex { $0.contains("0x561df9abad6c") || $0.contains("level2") || $0.contains("\"kind\"") })
            var edited = lines.map(String.init)
            if format == .sanitizer || text.contains("level2") && !text.contains("\"kind\"") {
                edited[target] += " " + long
                let document = try CrashReportParser.parse(Array(edited.joined(separator: "\n").utf8), as: format)
                #expect(document.warnings.contains { $0.line == target + 1 && $0.message.contains("cut") }, "\(name)")
            } else {
                // JSON: one long string value still parses (the object is bounded by the input).
                edited[target] = edited[target].replacingOccurrences(of: "\"timestamp\": \"", with: "\"timestamp\": \"\(long)")
                let document = try CrashReportParser.parse(Array(edited.joined(separator: "\n").utf8), as: format)
                #expect(document.report.threads.count == 1)
            }
        }
        let list = try CrashReportParser.parse(Array((Self.addresses + long + "\n0x4000\n").utf8), as: .addressList)
        #expect(list.report.threads[0].frames.count == 4 && list.warnings.first?.line == 5)
    }

    @Test func millionFrames() throws {
        let count = 1_000_000
        var swift = "*** Program crashed: Bad pointer dereference at 0x0 ***\nThread 0 \"x\" crashed:\n"
        var sanitizer = "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x0\n"
        var list = ""
        swift.reserveCapacity(count * 32)
        for index in 0..<count {
            swift += "\(index) [ra] 0x\(String(0x1000 + index, radix: 16))\n"
            sanitizer += "    #\(index) 0x\(String(0x1000 + index, radix: 16)) in f /a.c:1\n"
            list += "0x\(String(0x1000 + index, radix: 16))\n"
        }
        for (text, format) in [(swift, CrashReport.Format.swiftBacktrace), (sanitizer, .sanitizer), (list, .addressList)] {
            let document = try CrashReportParser.parse(Array(text.utf8))
            #expect(document.report.format == format)
            #expect(document.report.threads.first?.frames.count == CrashReportLimits.maxFramesPerThread)
            #expect(document.warnings.contains { $0.message.contains("the rest are skipped") })
        }
    }

    @Test func bogusHex() throws {
        let swift = Self.swiftText.replacingOccurrences(of: "0x000055aac37dc25b", with: "0xZZZZ")
            .replacingOccurrences(of: "0x000055aac37db000", with: "0x1234567890abcdef01")
        let document = try CrashReportParser.parse(Array(swift.utf8))
        #expect(document.warnings.contains { $0.line == 12 && $0.message.contains("hexadecimal") })
        #expect(document.warnings.contains { $0.line == 22 && $0.message.contains("image line") })
        #expect(document.report.threads[0].frames.count == 1)
        let sanitizer = Self.sanitizer.replacingOccurrences(of: "0x561df9abad6c", with: "0xQQ")
        let read = try CrashReportParser.parse(Array(sanitizer.utf8))
        #expect(read.warnings.contains { $0.line == 4 && $0.message.contains("0xQQ") })
    }

    @Test(arguments: [
        "*** Signal 11: Backtracing\n[1, 2]",
        "*** Signal 11: Backtracing\n{\"kind\": \"crashReport\", \"threads\": 5, \"images\": {}}",
        "{\"kind\": \"crashReport\", \"threads\": [7, {\"frames\": [1, {\"address\": 5}, {\"address\": \"0xZZ\"}]}], \"faultAddress\": []}",
        "{\"kind\": \"crashReport\", \"threads\": [{\"frames\": [{\"address\": \"0x10\"}",
        "{\"kind\": \"crashReport\"} trailing",
    ])
    func swiftJSONOfTheWrongShape(_ text: String) {
        do {
            let document = try CrashReportParser.parse(Array(text.utf8))
            #expect(document.report.format == .swiftBacktrace)
            #expect(document.report.threads.allSatisfy { $0.frames.isEmpty })
        } catch {
            #expect(error.line != nil)
        }
    }

    /// The program's own `{…}` output before a text backtrace is not taken for the JSON form.
    @Test func programOutputThatLooksLikeJSON() throws {
        let text = "{\"a\": 1}\n" + Self.swiftText
        let document = try CrashReportParser.parse(Array(text.utf8))
        #expect(document.report.format == .swiftBacktrace)
        #expect(document.report.threads.first?.frames.first?.line == 12)
    }

    @Test func noiseIsRefusedByEveryReader() {
        for format in [CrashReport.Format.swiftBacktrace, .sanitizer, .addressList, .appleText] {
            #expect(throws: CrashReportError.self, "\(format)") { try CrashReportParser.parse(Array("hello\nworld\n".utf8), as: format) }
            #expect(throws: CrashReportError.self, "\(format)") { try CrashReportParser.parse([], as: format) }
        }
    }
}
