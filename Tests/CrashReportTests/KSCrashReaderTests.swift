import CrashReport
import Testing

/// KSCrash JSON: images, threads, frames tied to images by address, registers, the error's
/// parts, and hostile input.
@Suite struct KSCrashReaderTests {
    static let report = """
        {"report": {"process_name": "demo", "type": "standard"},
         "system": {"CFBundleExecutable": "demo", "CFBundleIdentifier": "com.example.demo", "CFBundleShortVersionString": "2.1",
                    "CFBundleVersion": "40", "system_name": "iOS", "system_version": "17.1", "os_version": "21B80", "cpu_arch": "arm64",
                    "process_id": 77},
         "binary_images": [{"image_addr": 4295000064, "image_size": 16384, "name": "/var/demo.app/demo", "uuid": "4C4C44DD-5555-3144-A1EF-29BA5EAF98F6",
                            "cpu_type": 16777228, "cpu_subtype": 0},
                           {"image_addr": 7000000000, "image_size": 65536, "name": "/usr/lib/libobjc.A.dylib", "uuid": "B3D3F41C-2A6C-3E1C-9D0C-4B5B7B2F5A3C",
                            "cpu_type": 16777228, "cpu_subtype": 2}],
         "crash": {"error": {"type": "nsexception", "mach": {"exception": 10, "code": 0, "subcode": 0}, "signal": {"signal": 6},
                             "nsexception": {"name": "NSRangeException", "reason": "index 3 beyond bounds"}},
                   "threads": [{"index": 0, "crashed": false, "name": "worker", "backtrace": {"contents": [{"instruction_addr": 7000000100, "symbol_addr": 7000000064, "symbol_name": "objc_msgSend"}]}},
                               {"index": 1, "crashed": true, "dispatch_queue": "com.apple.main-thread",
                                "backtrace": {"contents": [{"instruction_addr": 4295000164}, {"instruction_addr": 4295000200}, "bad"]},
                                "registers": {"basic": {"x0": 0, "x1": 18446744073709551615, "pc": 4295000164, "bad": "x"}}}]}}
        """

    @Test func readsImagesThreadsRegistersAndTheError() throws {
        let bytes = Array(Self.report.utf8)
        #expect(CrashReportParser.detectFormat(bytes) == .kscrash)
        let document = try CrashReportParser.parse(bytes)
        let report = document.report
        #expect(report.format == .kscrash)
        #expect(report.process == "demo")
        #expect(report.processID == 77)
        #expect(report.osVersion == "iOS 17.1 (21B80)")
        #expect(report.facts == ["bundle identifier: com.example.demo", "app version: 2.1 (40)"])
        #expect(report.binaryImages.map(\.name) == ["demo", "libobjc.A.dylib"])
        #expect(report.binaryImages.map(\.uuid) == ["4c4c44dd55553144a1ef29ba5eaf98f6", "b3d3f41c2a6c3e1c9d0c4b5b7b2f5a3c"])
        #expect(report.binaryImages.map(\.arch) == ["arm64", "arm64e"])
        #expect(report.binaryImages[0].endAddress == 4295000064 + 16383)
        #expect(report.exception?.type == "EXC_CRASH")
        #expect(report.exception?.signal == "SIGABRT")
        #expect(report.applicationSpecificInformation == ["*** Terminating app due to uncaught exception 'NSRangeException', reason: 'index 3 beyond bounds'"])
        #expect(report.crashedThread == 1)
        #expect(report.threads.map(\.name) == ["worker", "com.apple.main-thread"])
        let worker = report.threads[0].frames[0]
        #expect(worker.imageName == "libobjc.A.dylib")
        #expect(worker.imageOffset == 100)
        #expect(worker.symbol == "objc_msgSend")
        #expect(worker.symbolOffset == 36)
        let crashed = report.threads[1]
        #expect(crashed.frames.map(\.imageOffset) == [100, 136])
        #expect(crashed.frames.map(\.isReturnAddress) == [false, true])
        // Full 64-bit register values survive (the JSON reader keeps integers up to UInt64.max).
        #expect(crashed.registers.map(\.name) == ["x0", "x1", "pc"])
        #expect(crashed.registers[1].value == .max)
        #expect(document.warnings.map(\.message) == ["thread 1 frame 2 is a string, not an object"])
    }

    @Test func aMachExceptionGivesCodesAndReason() throws {
        let text = #"{"binary_images": [], "crash": {"error": {"type": "mach", "address": 24, "mach": {"exception": 1, "code": 1, "code_name": "KERN_INVALID_ADDRESS", "subcode": 24}, "signal": {"signal": 10}}, "threads": []}}"#
        let report = try CrashReportParser.parse(Array(text.utf8)).report
        #expect(report.exception?.type == "EXC_BAD_ACCESS")
        #expect(report.exception?.signal == "SIGBUS")
        #expect(report.exception?.codes == "0x0000000000000001, 0x0000000000000018")
        #expect(report.exception?.reason == "KERN_INVALID_ADDRESS")
        #expect(report.exception?.faultAddress == 24)
    }

    @Test(arguments: [
        (#"{"binary_images": [], "crash": [1]}"#, "crash is a JSON array, not an object"),
        (#"{"binary_images": []}"#, "no crash object: not a KSCrash report"),
        (#"{"binary_images": [{"image_addr": 1"#, "the KSCrash JSON is not valid JSON at column 36: "),
    ])
    func hostileInputIsOneError(_ text: String, _ message: String) throws {
        let error = try #require(throws: CrashReportError.self) { try CrashReportParser.parse(Array(text.utf8)) }
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }
}
