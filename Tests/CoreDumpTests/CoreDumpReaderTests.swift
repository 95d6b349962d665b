import CoreDump
import CrashReport
import Foundation
import Testing

/// A real core (see `CoreFixture`) read by devkit and checked against eu-stack and readelf.
@Suite struct CoreDumpReaderTests {
    /// The fixture and its report, or nil (after printing why) when the tools are missing.
    func load() throws -> (CoreFixture, CrashReportDocument)? {
        switch CoreFixture.shared {
        case .failure(let reason):
            print("skipped: \(reason)")
            return nil
        case .success(let fixture):
            return (fixture, try CoreDumpReader.read(corePath: fixture.core, executable: fixture.program, searchPaths: []))
        }
    }

    @Test func threadsAndFramesMatchEuStack() throws {
        guard let (fixture, document) = try load() else { return }
        let expected = fixture.euStackPCs()
        #expect(expected.count == 4, "eu-stack sees the main thread and three parked ones")
        #expect(document.report.threads.count == expected.count)
        for thread in document.report.threads {
            let name = try #require(thread.name)
            let tid = try #require(Int64(name.dropFirst("tid ".count)))
            #expect(thread.frames.map(\.address) == expected[tid]?.map { Optional($0) }, "tid \(tid)")
        }
    }

    @Test func crashedThreadFaultedOnNull() throws {
        guard let (fixture, document) = try load() else { return }
        let report = document.report
        #expect(report.format == .coreDump)
        #expect(report.exception?.signal == "SIGSEGV")
        #expect(report.exception?.faultAddress == 0)
        let crashedIndex = try #require(report.crashedThread)
        let crashed = report.threads[crashedIndex]
        #expect(crashed.crashed)
        #expect(report.threads.filter(\.crashed).count == 1)
        // The main thread faulted: its tid is the process's pid.
        #expect(crashed.name == "tid \(report.processID ?? -1)")
        #expect(report.process == "threads-crash")
        #expect(report.path == fixture.program)
        // Frame 0 is the faulting PC, the rest return addresses; the three crash_* frames are
        // in the executable, at offsets from its start.
        #expect(crashed.frames.first?.isReturnAddress == false)
        #expect(crashed.frames.dropFirst().allSatisfy { $0.isReturnAddress })
        let image = try #require(report.binaryImages.first { $0.name == "threads-crash" })
        for frame in crashed.frames.prefix(4) {
            #expect(frame.imageName == "threads-crash")
            #expect(frame.imageOffset == frame.address.map { $0 - (image.loadAddress ?? 0) })
        }
    }

    @Test func registersOfTheCrashedThread() throws {
        guard let (_, document) = try load() else { return }
        let report = document.report
        let crashed = report.threads[try #require(report.crashedThread)]
        let registers = Dictionary(crashed.registers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let pcName = report.architecture == "x86_64" ? "rip" : "pc"
        #expect(registers[pcName] == crashed.frames.first?.address)
        #expect(registers[report.architecture == "x86_64" ? "rsp" : "sp"] != nil)
        if report.architecture == "x86_64" {
            #expect(crashed.registers.prefix(3).map(\.name) == ["rip", "rsp", "rbp"])
            #expect(crashed.registers.count == 27)
        }
        #expect(report.threads.allSatisfy { !$0.registers.isEmpty })
    }

    @Test func modulesIncludeTheExecutableWithItsBuildID() throws {
        guard let (fixture, document) = try load() else { return }
        let buildID = try #require(fixture.readelfBuildID())
        let image = try #require(document.report.binaryImages.first { $0.name == "threads-crash" })
        #expect(image.uuid == buildID)
        #expect(image.path == fixture.program)
        #expect((image.loadAddress ?? 0) < (image.endAddress ?? 0))
        #expect(document.report.binaryImages.contains { $0.name.hasPrefix("libc.so") && $0.uuid != nil })
    }

    /// The program moved after the crash: the core's record of its path is stale, and the
    /// module is found by base name (build-id checked) in a search path.
    @Test func searchPathsFindAMovedExecutable() throws {
        guard case .success = CoreFixture.shared else { print("skipped: tools missing"); return }
        guard case .success(let fixture) = CoreFixture.make(name: "moved-crash") else { Issue.record("second fixture failed"); return }
        let elsewhere = fixture.directory.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let moved = elsewhere.appendingPathComponent("moved-crash").path
        let expected = fixture.euStackPCs()
        try FileManager.default.moveItem(atPath: fixture.program, toPath: moved)
        defer { try? FileManager.default.removeItem(at: fixture.directory) }

        let document = try CoreDumpReader.read(corePath: fixture.core, executable: nil, searchPaths: [elsewhere.path])
        let image = try #require(document.report.binaryImages.first { $0.name == "moved-crash" })
        #expect(image.path == moved)
        let crashed = document.report.threads[try #require(document.report.crashedThread)]
        let crashedName = try #require(crashed.name)
        let tid = try #require(Int64(crashedName.dropFirst("tid ".count)))
        #expect(crashed.frames.map(\.address) == expected[tid]?.map { Optional($0) })
    }

    /// Issue 15 §1: a core names files devkit then opens; one of them replaced by a FIFO must
    /// be passed over, not block the read. A watchdog writer opens the FIFO after 20 s, so a
    /// regression fails the test instead of hanging the suite.
    @Test(arguments: ["program", "debuglink"])
    func aFIFOWhereTheCoreOrItsDebugLinkPointsIsPassedOver(_ replaced: String) throws {
        guard case .success = CoreFixture.shared else { print("skipped: tools missing"); return }
        guard case .success(let fixture) = CoreFixture.make(name: "fifo-\(replaced)") else { Issue.record("fixture failed"); return }
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let expected = fixture.euStackPCs()
        let fifo: String
        if replaced == "program" {
            fifo = fixture.program
            try FileManager.default.removeItem(atPath: fifo)
        } else {
            // The program's DWARF moved to a .gnu_debuglink sibling (build-id kept), which is
            // then a FIFO.
            guard let objcopy = Tool.find("objcopy") else { print("skipped: objcopy missing"); return }
            fifo = fixture.program + ".debug"
            #expect(Tool.run(objcopy, ["--only-keep-debug", fixture.program, fifo]).status == 0)
            #expect(Tool.run(objcopy, ["--strip-debug", "--add-gnu-debuglink=\(fifo)", fixture.program]).status == 0)
            try FileManager.default.removeItem(atPath: fifo)
        }
        #expect(mkfifo(fifo, 0o600) == 0)
        let watchdog = Thread {
            Thread.sleep(forTimeInterval: 20)
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        watchdog.start()
        let started = Date()
        let document = try CoreDumpReader.read(corePath: fixture.core, executable: nil, searchPaths: [])
        #expect(Date().timeIntervalSince(started) < 15, "the read waited on the FIFO")
        let crashed = document.report.threads[try #require(document.report.crashedThread)]
        let crashedName = try #require(crashed.name)
        let tid = try #require(Int64(crashedName.dropFirst("tid ".count)))
        // The core's own memory still unwinds the crashed thread.
        #expect(crashed.frames.first?.address == expected[tid]?.first)
    }
}
