import CrashReport
import Foundation
import Testing

/// The Swift runtime's backtraces, generated at test time: a small program crashes in several
/// ways under `SWIFT_BACKTRACE`, and its stderr is read back (text and JSON, symbolicated or not).
@Suite struct SwiftBacktraceReaderTests {
    static let source = """
        import Glibc

        func level3(_ p: UnsafeMutablePointer<Int>) -> Int { return p.pointee }
        func level2(_ x: Int) -> Int { return level3(UnsafeMutablePointer<Int>(bitPattern: x)!) + 1 }
        func level1(_ x: Int) -> Int { return level2(x) * 2 }

        func sleeper(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
            sleep(30)
            return nil
        }

        let mode = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "bad-pointer"
        let count = CommandLine.arguments.count
        switch mode {
        case "force-unwrap":
            let value: Int? = count > 100 ? 1 : nil
            print(value!)
        case "index":
            let array = [1, 2, 3]
            print(array[count + 5])
        case "fatal":
            fatalError("Something went badly wrong")
        case "overflow":
            print(Int.max - 1 + count)
        case "threads":
            var thread = pthread_t()
            pthread_create(&thread, nil, sleeper, nil)
            usleep(200_000)
            print(level1(8))
        default:
            print(level1(8))
        }

        """

    /// The compiled program, or why there is none (no swiftc, compile failure).
    static let program: Swift.Result<String, any Error> = {
        guard let swiftc = ProgramRunner.tool("swiftc") else {
            return .failure(Skip(reason: "swiftc not found on PATH or in /opt/swift/usr/bin"))
        }
        return Swift.Result {
            let directory = try ProgramRunner.temporaryDirectory("swift")
            return try ProgramRunner.compile(swiftc, source: source, name: "crasher.swift", in: directory, flags: ["-g", "-Onone"])
        }
    }()

    struct Skip: Error, CustomStringConvertible { var reason: String; var description: String { reason } }

    /// Runs the program in `mode` and parses its stderr; nil (with the reason printed) when
    /// the program cannot be built here.
    static func crash(_ mode: String, options: String, setarch: Bool = false) throws -> (CrashReportDocument, [UInt8], String)? {
        let binary: String
        switch program {
        case .success(let path): binary = path
        case .failure(let error as Skip):
            print("skipped: \(error.reason)")
            return nil
        case .failure(let error): throw error
        }
        var executable = binary, arguments = [mode]
        if setarch {
            guard let tool = ProgramRunner.tool("setarch") else {
                print("skipped: setarch not found")
                return nil
            }
            executable = tool
            arguments = ["-R", binary, mode]
        }
        let result = try ProgramRunner.run(executable, arguments, environment: ["SWIFT_BACKTRACE": "enable=yes,interactive=no,\(options)"])
        #expect(result.status != 0, "the program did not crash")
        let document = try CrashReportParser.parse(result.stderr)
        return (document, result.stderr, binary)
    }

    static let modes = ["bad-pointer", "force-unwrap", "index", "fatal", "overflow", "threads"]
    static let variants = ["symbolicate=off", "symbolicate=full", "format=json", "format=json,symbolicate=off"]

    @Test(arguments: modes, variants)
    func everyCrashReads(_ mode: String, _ options: String) throws {
        guard let (document, log, binary) = try Self.crash(mode, options: options) else { return }
        let report = document.report
        #expect(report.format == .swiftBacktrace)
        #expect(CrashReportParser.detectFormat(log) == .swiftBacktrace)
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect(report.architecture != nil && report.osVersion?.contains("Linux") == true)
        #expect(report.process == "crasher" && report.path == binary)
        let crashed = try #require(report.threads.first { $0.crashed })
        #expect(report.crashedThread == crashed.index)
        // The backtracer stops at `main`: a crash in main itself has one frame (unsymbolicated).
        #expect(crashed.frames.count >= (mode == "overflow" ? 1 : 2))
        #expect(crashed.frames.first?.isReturnAddress == false)
        // Every frame after the first holds a return address, except an inlined frame's
        // caller (same address: `[inlined]` then the function it sits in).
        for (previous, frame) in zip(crashed.frames, crashed.frames.dropFirst()) where frame.address != previous.address {
            #expect(frame.isReturnAddress, "frame \(frame.index)")
        }
        #expect(crashed.registers.count >= 16)
        #expect(report.exception?.reason != nil && report.exception?.signal != nil)

        // The program's image: build-id, range, path; its frames know their offset into it.
        let image = try #require(report.binaryImages.first { $0.name == "crasher" })
        #expect(image.path == binary && image.uuid?.count == 40)
        let load = try #require(image.loadAddress)
        let inProgram = crashed.frames.filter { $0.imageName == "crasher" }
        #expect(!inProgram.isEmpty)
        for frame in inProgram {
            #expect(frame.imageOffset == frame.address.map { $0 - load })
        }
        // Text frames point at their line.
        if !options.contains("json") {
            let lines = String(decoding: log, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            for frame in crashed.frames {
                let line = try #require(frame.line)
                #expect(lines[line - 1].contains("0x" + String(format: "%016lx", frame.address ?? 0)))
            }
        }
        // Symbolicated runs name functions and source lines.
        if !options.contains("symbolicate=off") {
            #expect(crashed.frames.contains { $0.sourceLocation?.contains("crasher.swift:") == true && $0.symbol != nil })
        } else {
            #expect(crashed.frames.allSatisfy { $0.symbol == nil && $0.sourceLocation == nil })
        }

        switch mode {
        case "bad-pointer", "threads":
            #expect(report.exception?.signal == "SIGSEGV")
            #expect(report.exception?.reason == "Bad pointer dereference")
            #expect(report.exception?.faultAddress == 8)
            if mode == "threads" { #expect(report.threads.count >= 2) }
            if !options.contains("symbolicate=off") {
                #expect(crashed.frames.prefix(3).compactMap(\.symbol) == ["level3(_:)", "level2(_:)", "level1(_:)"])
            }
        case "fatal":
            #expect(report.applicationSpecificInformation.contains { $0.hasSuffix("Fatal error: Something went badly wrong") })
        case "index":
            #expect(report.applicationSpecificInformation.contains { $0.hasSuffix("Fatal error: Index out of range") })
        case "force-unwrap":
            #expect(report.applicationSpecificInformation.contains { $0.contains("Unexpectedly found nil") })
        default:
            #expect(report.exception?.signal == "SIGILL" || report.exception?.signal == "SIGTRAP")
        }
    }

    /// With ASLR off, `symbolicate=off`, a symbolicated run and the JSON form give the same
    /// addresses for the crashed thread: the reader takes frames as written, whatever the form.
    @Test(arguments: ["bad-pointer", "index"])
    func unsymbolicatedAddressesMatchSymbolicated(_ mode: String) throws {
        guard let (plain, _, _) = try Self.crash(mode, options: "symbolicate=off", setarch: true),
              let (full, _, _) = try Self.crash(mode, options: "symbolicate=full", setarch: true),
              let (json, _, _) = try Self.crash(mode, options: "format=json", setarch: true) else { return }
        func addresses(_ document: CrashReportDocument) -> [UInt64] {
            document.report.threads.first { $0.crashed }?.frames.compactMap(\.address) ?? []
        }
        let again = try Self.crash(mode, options: "symbolicate=off", setarch: true).map { addresses($0.0) }
        guard again == addresses(plain) else {
            print("skipped: setarch -R does not turn ASLR off here (addresses differ between runs)")
            return
        }
        #expect(!addresses(plain).isEmpty)
        #expect(addresses(plain) == addresses(full))
        #expect(addresses(plain) == addresses(json))
    }

    /// The corpus samples (Swift 6.3, x86_64) field by field.
    @Test func corpusAsyncSampleReads() throws {
        let path = "../shared/corpus/crash/swift-linux/swift6.3-linux-x86_64-async-bad-pointer.txt"
        guard let data = FileManager.default.contents(atPath: path) else {
            print("skipped: \(path) not present")
            return
        }
        let report = try CrashReportParser.parse([UInt8](data)).report
        #expect(report.threads.map(\.index) == [0, 1, 2, 3, 4])
        #expect(report.crashedThread == 1 && report.threads[1].name == "oot.default-qos")
        let frames = report.threads[1].frames
        #expect(frames.count == 8)
        #expect(frames[1].isReturnAddress && frames[1].symbol == "step2(_:)" && frames[1].sourceLocation == "/src/CrashDemo/main.swift:6")
        #expect(frames[3].symbol == "closure #1 in " && frames[3].imageName == "crashdemo-async")
        #expect(frames[7].symbol == "completeTaskWithClosure(swift::AsyncContext*, swift::SwiftError*)" && frames[7].imageName == "libswift_Concurrency.so")
        #expect(report.threads[0].frames.first?.symbol == nil && report.threads[0].frames.first?.imageName == "libgcc_s.so.1")
        #expect(report.binaryImages.count == 5 && report.binaryImages[1].path == "/opt/swift/usr/lib/swift/linux/libdispatch.so")
        #expect(report.binaryImages[0].loadAddress == 0x563e_0d8c_0000 && report.binaryImages[0].endAddress == 0x563e_0d8c_3558)
        #expect(report.threads[1].registers.first == CrashRegister(name: "rax", value: 0x563e_3f7b_17c0))
        #expect(report.threads[1].registers.contains { $0.name == "gs" })
    }

    @Test func inlinedFramesAndRegistersUnderTheThread() throws {
        let text = """

            *** Signal 4: Backtracing from 0x558f4e9d98a3... done ***

            *** Program crashed: Illegal instruction at 0x0000558f4e9d98a3 ***

            Thread 0 "crashdemo" crashed:

            rax 0x8000000000000001  9223372036854775809
            rdx 0x00007ffca7946b78  db 89 94 a7 fc 7f 00 00 00 00 00 00 00 00 00 00  Û··§ü···

              0 [inlined] [system] 0x0000558f4e9d98a3 Swift runtime failure: arithmetic overflow in crashdemo at /src/main.swift
              1                    0x0000558f4e9d98a3 main + 1539 in crashdemo at /src/main.swift:15:5
            ...

            Images (14 omitted):

            0x0000558f4e9d8000\u{2013}0x0000558f4e9d9ca8 1d689bf0ee74eab31c84853acb400cb74bacacff crashdemo /src/Crash Demo/crashdemo
            0x00007f0000000000\u{2013}0x00007f0000001000 <no build ID> libfoo.so /usr/lib/libfoo.so
            """
        let document = try CrashReportParser.parse(Array(text.utf8))
        let report = document.report
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect(report.exception?.signal == "SIGILL" && report.exception?.faultAddress == 0x558f_4e9d_98a3)
        let thread = try #require(report.threads.first)
        #expect(thread.registers == [CrashRegister(name: "rax", value: 0x8000_0000_0000_0001), CrashRegister(name: "rdx", value: 0x7ffc_a794_6b78)])
        #expect(thread.frames.count == 2)
        #expect(thread.frames[0].symbol == "Swift runtime failure: arithmetic overflow" && thread.frames[0].sourceLocation == "/src/main.swift")
        #expect(thread.frames[0].line == 11 && thread.frames[1].line == 12)
        #expect(thread.frames[1].symbolOffset == 1539 && thread.frames[1].imageOffset == 0x18a3)
        #expect(report.binaryImages.map(\.path) == ["/src/Crash Demo/crashdemo", "/usr/lib/libfoo.so"])
        #expect(report.binaryImages[1].uuid == nil)
    }
}
