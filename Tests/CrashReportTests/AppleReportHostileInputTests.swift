import CrashReport
import Testing

/// Damaged and hostile Apple logs (.crash text, .ips): errors or partial reports with warnings, never a trap.
@Suite struct AppleReportHostileInputTests {
    static let textLog = """
        Process:             demo [42]
        OS Version:          iPhone OS 13.5 (17F75)
        Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
        Exception Codes: KERN_INVALID_ADDRESS at 0x0000000000000000
        Triggered by Thread:  0

        Thread 0 Crashed:
        0   demo                          \t0x00000001045490f0 0x104544000 + 20720
        1   libsystem_c.dylib             \t0x00000001861f4934 abort + 100

        Thread 0 crashed with ARM Thread State (64-bit):
            x0: 0x0000000000000001   x1: 0xffffffffffffffff

        Binary Images:
        0x104544000 - 0x10454ffff demo arm64  <b6356bad2e313cba9e4fe12daca0d204> /var/demo

        """

    @Test func wellFormedTextLog() throws {
        let report = try CrashReportParser.parse(Array(Self.textLog.utf8)).report
        #expect(report.process == "demo" && report.processID == 42)
        #expect(report.exception?.type == "EXC_BAD_ACCESS" && report.exception?.signal == "SIGSEGV")
        #expect(report.crashedThread == 0)
        let frames = report.threads.first?.frames ?? []
        #expect(frames.count == 2)
        #expect(frames.first?.imageOffset == 20720 && frames.first?.address == 0x1_0454_90f0)
        #expect(frames.last?.symbol == "abort" && frames.last?.symbolOffset == 100)
        #expect(report.threads.first?.registers.last == CrashRegister(name: "x1", value: UInt64.max))
        #expect(report.binaryImages.first?.uuid == "b6356bad2e313cba9e4fe12daca0d204")
    }

    @Test func everyTruncationParsesOrFails() {
        let bytes = Array(Self.textLog.utf8)
        for length in 0...bytes.count {
            _ = try? CrashReportParser.parse(Array(bytes.prefix(length)))
        }
        let ips = Array(Self.ipsLog.utf8)
        for length in 0...ips.count {
            _ = try? CrashReportParser.parse(Array(ips.prefix(length)))
        }
    }

    @Test func megabyteLineIsCutWithAWarning() throws {
        let long = String(repeating: "A", count: 1 << 20)
        let log = Self.textLog.replacingOccurrences(of: "abort + 100", with: long)
        let document = try CrashReportParser.parse(Array(log.utf8))
        #expect(document.warnings.contains { $0.line == 9 && $0.message.contains("cut") })
        #expect(document.report.threads.first?.frames.count == 2)
    }

    @Test func bogusHexIsAWarningWithItsLine() throws {
        let log = Self.textLog
            .replacingOccurrences(of: "0x00000001861f4934", with: "0xZZZZ")
            .replacingOccurrences(of: "x0: 0x0000000000000001", with: "x0: 0x123456789abcdef0123")
        let document = try CrashReportParser.parse(Array(log.utf8))
        #expect(document.warnings.contains { $0.line == 9 && $0.message.contains("hexadecimal address") })
        #expect(document.warnings.contains { $0.line == 12 && $0.message.contains("register x0") })
        #expect(document.report.threads.first?.frames.count == 1)
    }

    @Test func textThatIsNoCrashLogIsRefused() {
        #expect(throws: CrashReportError.self) { try CrashReportParser.parse(Array("hello\nworld\n".utf8)) }
        #expect(throws: CrashReportError.self) { try CrashReportParser.parse([]) }
    }

    static let ipsLog = """
        {"bug_type":"309","os_version":"macOS 11.3","name":"demo"}
        {"procName":"demo","pid":7,"faultingThread":0,"exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV"},
         "usedImages":[{"name":"demo","base":18446744073709551000,"uuid":"B8898079-5424-3E89-92B0-33022C3BE1BB","arch":"arm64e"}],
         "threads":[{"triggered":true,"frames":[{"imageIndex":0,"imageOffset":16},{"imageIndex":0,"imageOffset":1000},{"imageIndex":9,"imageOffset":1}],
                     "threadState":{"pc":{"value":18446744073709551615},"x":[{"value":1},{"value":2}]}}]}
        """

    @Test func ipsKeepsSixtyFourBitValuesExactly() throws {
        let document = try CrashReportParser.parse(Array(Self.ipsLog.utf8))
        let thread = try #require(document.report.threads.first)
        #expect(thread.crashed && document.report.crashedThread == 0)
        #expect(thread.registers == [CrashRegister(name: "pc", value: UInt64.max), CrashRegister(name: "x0", value: 1), CrashRegister(name: "x1", value: 2)])
        #expect(thread.frames[0].address == 18446744073709551016)
        #expect(thread.frames[1].address == nil)  // base + offset overflows: no address, no trap
        #expect(document.report.binaryImages.first?.uuid == "b889807954243e8992b033022c3be1bb")
        #expect(document.warnings.contains { $0.message.contains("imageIndex 9") })
    }

    @Test(arguments: [
        "{\"a\":1}",                                  // no body line
        "{\"a\":1}\n[1,2,3]",                         // body is an array
        "[1]\n{}",                                    // header is an array
        "{\"a\":1}\n{\"threads\": [1, \"x\", {\"frames\": 5}]",  // unterminated body
        "{\"a\":1}\n{\"x\": null}",                   // null
    ])
    func ipsOfTheWrongShape(_ text: String) {
        do {
            let document = try CrashReportParser.parse(Array(text.utf8))
            #expect(document.report.threads.isEmpty)
        } catch {
            #expect(error.line != nil || !error.message.isEmpty)
        }
    }

    @Test func ipsWithWrongTypedMembersIsPartial() throws {
        let text = "{\"a\":1}\n{\"threads\": [1, \"x\", {\"frames\": 5}, {\"frames\": [7, {\"imageIndex\": -1}]}], \"usedImages\": 3}"
        let document = try CrashReportParser.parse(Array(text.utf8))
        #expect(document.report.threads.count == 2)
        #expect(document.report.threads.last?.frames.count == 1)
        #expect(document.warnings.count >= 4)
    }
}
