import CrashReport
import CrashSymbolication
import Testing

/// MetricKit and KSCrash reports written from the crashy.c fixtures: every frame must
/// symbolicate to llvm-symbolizer's answer (images found by UUID, as for `.ips`), with or
/// without runtime addresses, and an image whose UUID differs must never be used.
@Suite struct MoreCrashFormatTests {
    static func metricKit(_ fixture: FixtureCrash, uuid: String? = nil, addresses: Bool) throws -> String {
        let frames = [try fixture.runtime("load_model"), try fixture.runtime("controller", 9), try fixture.runtime("start", 9)]
        let identifier = uuid ?? fixture.uuid
        // MetricKit's UUID form: upper-case with dashes.
        let dashed = identifier.uppercased().enumerated().map { [8, 12, 16, 20].contains($0.offset) ? "-\($0.element)" : "\($0.element)" }.joined()
        var json = "{}"
        for address in frames.reversed() {
            let offset = address - FixtureCrash.loadAddress
            let addressField = addresses ? #", "address": \#(address)"# : ""
            let sub = json == "{}" ? "" : #", "subFrames": [\#(json)]"#
            json = #"{"binaryUUID": "\#(dashed)", "binaryName": "crashy", "offsetIntoBinaryTextSegment": \#(offset)\#(addressField)\#(sub)}"#
        }
        return #"{"callStackTree": {"callStacks": [{"threadAttributed": true, "callStackRootFrames": [\#(json)]}]}, "diagnosticMetaData": {"exceptionType": 1, "signal": 11, "platformArchitecture": "x86_64"}}"#
    }

    @Test(arguments: [true, false])
    func metricKitFramesMatchLLVMSymbolizer(addresses: Bool) throws {
        let fixture = try FixtureCrash(arch: "x86_64")
        let report = try MachOCrashTests.parse(try Self.metricKit(fixture, addresses: addresses))
        #expect(report.format == .metricKit)
        let crash = MachOCrashTests.symbolicator(searchPaths: [FixtureCrash.fixtures.path]).symbolicate(report)
        #expect(crash.images[0].status == .found)
        if addresses {
            try MachOCrashTests.expectOracle(crash, fixture)
        } else {
            // No runtime addresses: compare the file addresses the offsets name.
            for (frame, result) in zip(report.threads[0].frames, crash.threads[0]) {
                let runtime = FixtureCrash.loadAddress + (frame.imageOffset ?? 0)
                let expected = try fixture.oracle(runtime: frame.isReturnAddress ? runtime - 1 : runtime)
                #expect(try #require(result.symbols).frames.map { $0.function ?? "??" } == expected.map(\.0))
            }
        }
    }

    @Test func aMetricKitImageWithAnotherUUIDIsNeverUsed() throws {
        let fixture = try FixtureCrash(arch: "x86_64")
        let report = try MachOCrashTests.parse(try Self.metricKit(fixture, uuid: "00112233445566778899aabbccddeeff", addresses: true))
        let crash = MachOCrashTests.symbolicator(searchPaths: [FixtureCrash.fixtures.path]).symbolicate(report)
        #expect(crash.images[0].status != .found)
        #expect(crash.threads[0].allSatisfy { $0.symbols == nil })
    }

    @Test func kscrashFramesMatchLLVMSymbolizer() throws {
        let fixture = try FixtureCrash(arch: "x86_64")
        let frames = [try fixture.runtime("load_model"), try fixture.runtime("controller", 9), try fixture.runtime("start", 9)]
        let text = """
            {"binary_images": [{"image_addr": \(FixtureCrash.loadAddress), "image_size": 16384, "name": "/Applications/crashy.app/Contents/MacOS/crashy",
                                "uuid": "\(fixture.uuid.uppercased())", "cpu_type": 16777223}],
             "system": {"cpu_arch": "x86_64"},
             "crash": {"error": {"type": "mach", "mach": {"exception": 1, "code": 1, "subcode": 24}},
                       "threads": [{"index": 0, "crashed": true, "backtrace": {"contents": [\(frames.map { #"{"instruction_addr": \#($0)}"# }.joined(separator: ", "))]},
                                    "registers": {"basic": {"rdi": 0, "rsi": \(try fixture.runtime("selector_reload")), "rip": \(frames[0])}}}]}}
            """
        let report = try MachOCrashTests.parse(text)
        #expect(report.format == .kscrash)
        let crash = MachOCrashTests.symbolicator(searchPaths: [FixtureCrash.fixtures.path]).symbolicate(report)
        #expect(crash.images[0].status == .found)
        try MachOCrashTests.expectOracle(crash, fixture)
        // Registers are decoded as for .ips: rsi names the selector string in the binary.
        let selector = FixtureCrash.hex(try fixture.runtime("selector_reload"))
        #expect(crash.decodings.map(\.message).contains("rsi = \(selector): \"reloadData\" (crashy __TEXT,__objc_methname)"))
    }
}
