import CrashReport
import Testing

/// The fields the Apple readers fill beyond the basics: application-specific information, the
/// last exception backtrace, the fault address, frames' lines and return-address flags,
/// source locations, thread-state variants and binary-image line variants.
@Suite struct AppleFieldsTests {
    static let log = """
        Process:             demo [42]
        Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
        Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000018
        Triggered by Thread:  1

        Application Specific Information:
        *** Terminating app due to uncaught exception 'NSInvalidArgumentException'
        abort() called

        Last Exception Backtrace:
        0   CoreFoundation                	0x1aa7cc904 __exceptionPreprocess + 220
        1   libobjc.A.dylib               	0x1bf1fbc50 objc_exception_throw + 59

        Thread 0:
        0   libsystem_kernel.dylib        	0x00000001861f4934 mach_msg_trap + 8

        Thread 1 Crashed:
        0   demo                          	0x00000001045490f0 0x104544000 + 20720
        1   demo                          	0x00000001045491f0 -[Planet volume] + 12 (Planet.swift:12)
        2   demo                          	0x00000001045492f0 main (main.m:3)

        Thread 1 crashed with ARM Thread State (64-bit):
            x0: 0x0000000000000001   x1: 0xffffffffffffffff
           far: 0x0000000000000018  esr: 0x92000006 (Data Abort) byte read Translation fault
          cpsr: 0x60000000

        Binary Images:
        0x104544000 - 0x10454ffff +demo arm64  <b6356bad2e313cba9e4fe12daca0d204> /var/demo
        0x104600000 - 0x104600fff libnoarch.dylib <B6356BAD-2E31-3CBA-9E4F-E12DACA0D204> /usr/lib/libnoarch.dylib
        0x100000000 - 0x200000000 +a.out (0) <B6356BAD-2E31-3CBA-9E4F-E12DACA0D205> /tmp/a.out
        0x0 - 0xffffffffffffffff ??? (*) <00000000-0000-0000-0000-000000000000> ???
        0x104700000 - 0x104700fff Google Chrome Framework arm64e  <b6356bad2e313cba9e4fe12daca0d206> /A/Google Chrome Framework

        """

    @Test func newFields() throws {
        let document = try CrashReportParser.parse(Array(Self.log.utf8))
        let report = document.report
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect(report.exception?.faultAddress == 0x18)
        #expect(report.applicationSpecificInformation == ["*** Terminating app due to uncaught exception 'NSInvalidArgumentException'", "abort() called"])
        #expect(report.lastExceptionBacktrace.map(\.symbol) == ["__exceptionPreprocess", "objc_exception_throw"])
        #expect(report.lastExceptionBacktrace.map(\.line) == [11, 12])
        #expect(report.lastExceptionBacktrace.map(\.isReturnAddress) == [false, true])
        let crashed = try #require(report.threads.first { $0.crashed })
        #expect(crashed.index == 1 && report.crashedThread == 1)
        #expect(crashed.frames.map(\.line) == [18, 19, 20])
        #expect(crashed.frames.map(\.isReturnAddress) == [false, true, true])
        #expect(crashed.frames[1].symbol == "-[Planet volume]" && crashed.frames[1].symbolOffset == 12 && crashed.frames[1].sourceLocation == "Planet.swift:12")
        #expect(crashed.frames[2].symbol == "main" && crashed.frames[2].sourceLocation == "main.m:3")
        #expect(report.threads[0].frames.first?.isReturnAddress == false)
        // The thread state goes to the thread it names; descriptions after a value are skipped.
        #expect(crashed.registers.map(\.name) == ["x0", "x1", "far", "esr", "cpsr"])
        #expect(crashed.registers.first { $0.name == "esr" }?.value == 0x9200_0006)
        #expect(report.threads[0].registers.isEmpty)

        let images = report.binaryImages
        #expect(images.map(\.name) == ["demo", "libnoarch.dylib", "a.out", "???", "Google Chrome Framework"])
        #expect(images.map(\.arch) == ["arm64", nil, nil, nil, "arm64e"])
        #expect(images[1].uuid == "b6356bad2e313cba9e4fe12daca0d204" && images[1].path == "/usr/lib/libnoarch.dylib")
        #expect(images[2].loadAddress == 0x1_0000_0000 && images[2].endAddress == 0x2_0000_0000)
        #expect(images[3].path == "???" && images[3].uuid == "00000000000000000000000000000000")
        #expect(images[4].path == "/A/Google Chrome Framework")
    }

    /// Every prefix of both samples (the new sections cut anywhere): read or refused.
    @Test func everyTruncation() {
        for text in [Self.log, Self.ips] {
            let bytes = Array(text.utf8)
            for length in 0...bytes.count { _ = try? CrashReportParser.parse(Array(bytes.prefix(length))) }
        }
    }

    @Test func hugeLastExceptionListIsCut() throws {
        let list = (0..<20_000).map { "0x\(String($0 + 1, radix: 16))" }.joined(separator: " ")
        let text = "Process: demo [1]\nLast Exception Backtrace:\n(\(list.prefix(16000)))\n\n" + String(repeating: "Application Specific Information:\nx\n", count: 2)
        let document = try CrashReportParser.parse(Array(text.utf8))
        #expect(document.report.lastExceptionBacktrace.count > 1000)
        #expect(document.report.applicationSpecificInformation == ["x", "x"])
    }

    @Test(arguments: [
        ("Exception Codes: KERN_INVALID_ADDRESS at 0x0000000000000020", UInt64(0x20)),
        ("Exception Codes: 0x0000000000000001, 0x0000000000000028", 0x28),
        ("Exception Codes: SEGV_MAPERR at 0x8", 0x8),
        ("Exception Subtype: KERN_INVALID_ADDRESS at 0x2000000100ae9df8 -> 0x0000000100ae9df8 (possible pointer authentication failure)", 0x2000_0001_00ae_9df8),
    ])
    func faultAddressForms(_ line: String, _ expected: UInt64) throws {
        let text = "Process: demo [1]\nException Type:  EXC_BAD_ACCESS (SIGSEGV)\n\(line)\n"
        #expect(try CrashReportParser.parse(Array(text.utf8)).report.exception?.faultAddress == expected)
    }

    @Test func codesOfOtherExceptionsAreNoAddress() throws {
        let text = "Process: demo [1]\nException Type:  EXC_CRASH (SIGABRT)\nException Codes: 0x0000000000000000, 0x0000000000000000\n"
        #expect(try CrashReportParser.parse(Array(text.utf8)).report.exception?.faultAddress == nil)
    }

    @Test func lastExceptionAsAddressList() throws {
        let text = """
            Process: demo [1]
            Last Exception Backtrace:
            (0x1a2b 0x3c4d
             0x5e6f)

            Thread 0 Crashed:
            0   demo  0x0000000100001000 0x100000000 + 4096
            """
        let document = try CrashReportParser.parse(Array(text.utf8))
        let frames = document.report.lastExceptionBacktrace
        #expect(frames.map(\.address) == [0x1a2b, 0x3c4d, 0x5e6f])
        #expect(frames.map(\.line) == [3, 3, 4])
        #expect(frames.map(\.isReturnAddress) == [false, true, true])
        #expect(frames.allSatisfy { $0.imageName == nil })
        #expect(document.report.threads.first?.frames.count == 1)
    }

    @Test(arguments: [
        ("Thread 0 crashed with ARM Thread State (32-bit):", "    r0: 0x00000001    r1: 0x00000002\n  cpsr: 0x00000010", ["r0", "r1", "cpsr"]),
        ("Thread 0 crashed with X86 Thread State (64-bit):", "  rax: 0x0000000000000000  rbx: 0x0000000000000001\n  rip: 0x00007fff2030c92e  rfl: 0x0000000000000246  cr2: 0x0000000000000018", ["rax", "rbx", "rip", "rfl", "cr2"]),
        ("Thread 0 crashed with X86 Thread State (32-bit):", "  eax: 0x00000000  ebx: 0x00000001  ecx: 0xbffff4cc", ["eax", "ebx", "ecx"]),
        ("Thread 0 crashed with ARM Thread State (64-bit):", "    sp: 0x000000016b8b9000   pc: 0x0000000186388d88 cpsr: 0x40000000\n   esr: 0x56000080  Address size fault", ["sp", "pc", "cpsr", "esr"]),
    ])
    func threadStateVariants(_ header: String, _ body: String, _ names: [String]) throws {
        let text = "Process: demo [1]\n\nThread 0 Crashed:\n0   demo  0x0000000100001000 0x100000000 + 4096\n\n\(header)\n\(body)\n\nBinary Images:\n"
        let document = try CrashReportParser.parse(Array(text.utf8))
        #expect(document.report.threads.first?.registers.map(\.name) == names)
        #expect(document.warnings.isEmpty, "\(document.warnings)")
    }

    static let ips = """
        {"bug_type":"309","os_version":"macOS 13.0"}
        {"procName":"demo","pid":7,"faultingThread":0,
         "exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV","codes":"0x0000000000000001, 0x0000000000000030"},
         "asi":{"CoreFoundation":["*** Terminating app due to uncaught exception", "second"],"dyld":["dyld2 mode"]},
         "usedImages":[{"name":"demo","base":4096,"uuid":"B8898079-5424-3E89-92B0-33022C3BE1BB"}],
         "lastExceptionBacktrace":[{"imageIndex":0,"imageOffset":16,"symbol":"__exceptionPreprocess","symbolLocation":220},{"imageIndex":0,"imageOffset":32}],
         "threads":[{"triggered":true,"frames":[{"imageIndex":0,"imageOffset":16},{"imageIndex":0,"imageOffset":48}]}]}
        """

    @Test func ipsNewFields() throws {
        let report = try CrashReportParser.parse(Array(Self.ips.utf8)).report
        #expect(report.applicationSpecificInformation == ["*** Terminating app due to uncaught exception", "second", "dyld2 mode"])
        #expect(report.lastExceptionBacktrace.map(\.address) == [4112, 4128])
        #expect(report.lastExceptionBacktrace.map(\.isReturnAddress) == [false, true])
        #expect(report.lastExceptionBacktrace.first?.symbol == "__exceptionPreprocess")
        #expect(report.threads.first?.frames.map(\.isReturnAddress) == [false, true])
        #expect(report.exception?.faultAddress == 0x30)
    }

    @Test(arguments: [
        (#""exception":{"type":"EXC_BAD_ACCESS","subtype":"KERN_INVALID_ADDRESS at 0x0000000000000018"}"#, UInt64?(0x18)),
        (#""exception":{"type":"EXC_BAD_ACCESS"},"vmRegionInfo":"0x40 is not in any region.""#, 0x40),
        (#""exception":{"type":"EXC_BAD_ACCESS","rawCodes":[1, 80]}"#, 80),
        (#""exception":{"type":"EXC_CRASH","codes":"0x0, 0x0"}"#, nil),
    ])
    func ipsFaultAddressForms(_ member: String, _ expected: UInt64?) throws {
        let text = "{\"bug_type\":\"309\"}\n{\(member),\"threads\":[]}"
        #expect(try CrashReportParser.parse(Array(text.utf8)).report.exception?.faultAddress == expected)
    }
}
