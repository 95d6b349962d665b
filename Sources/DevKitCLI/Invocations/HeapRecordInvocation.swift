import ArgumentParser
import HeapLauncher
import System

/// One run of `devkit heap record`: its arguments and what it does with them. Built by
/// ArgumentParser's `Heap.HeapRecord` or read directly (`DirectlyParsed`): every recorded run
/// pays devkit's start-up on top of the program's, and ArgumentParser's reflection was most of
/// it.
struct HeapRecordInvocation: DirectlyParsed {
    static let commandPath = ["heap", "record"]

    var output: String?
    var pid: Int32?
    var markSignal = MarkSignal(number: 12)
    var interval: RecordInterval?
    var stackDepth = 64
    var fork = ForkPolicy.stop
    var scanAtExit = false
    var everyEvent = false
    /// The program and its arguments.
    var program: [String] = []

    static func read(_ arguments: inout DirectArguments) -> HeapRecordInvocation? {
        var record = HeapRecordInvocation()
        while let option = arguments.nextOption() {
            let read = switch option {
            case "-o", "--output": arguments.read(into: &record.output)
            case "--pid": arguments.read(into: &record.pid)
            case "--mark-signal": arguments.read(into: &record.markSignal)
            case "--interval": arguments.read(into: &record.interval)
            case "--stack-depth": arguments.read(into: &record.stackDepth)
            case "--fork": arguments.read(into: &record.fork)
            case "--scan-at-exit": arguments.set(&record.scanAtExit)
            case "--every-event": arguments.set(&record.everyEvent)
            default: false
            }
            guard read else { return nil }
        }
        // ArgumentParser takes everything from the first positional on as the program's line,
        // `--` included; read here is only a program given after `--` (or none, with --pid).
        guard arguments.positionals.isEmpty || arguments.positionalsBeforeEnd == 0 else { return nil }
        record.program = arguments.positionals
        return record
    }

    func validate() throws {
        if let pid {
            guard pid > 0 else { throw ValidationError("--pid must be a process id.") }
            guard program.isEmpty else { throw ValidationError("Give either --pid or a program to run, not both.") }
            guard !scanAtExit else { throw ValidationError("--scan-at-exit cannot be used with --pid.") }
            guard fork == .stop else { throw ValidationError("--fork follow cannot be used with --pid.") }
        } else {
            guard !program.isEmpty else { throw ValidationError("Missing the program to run (after --) or --pid.") }
        }
        guard (1...256).contains(stackDepth) else { throw ValidationError("--stack-depth must be between 1 and 256.") }
        if interval != nil, markSignal.number == 0 { throw ValidationError("--interval needs a mark signal.") }
    }

    func run() throws {
        if let pid { return try attach(pid) }
        var configuration = HeapLauncher.Configuration(program: program[0], outputPath: output)
        configuration.markSignal = markSignal.number
        configuration.interval = interval?.seconds
        configuration.stackDepth = stackDepth
        configuration.followForks = fork == .follow
        configuration.scanAtExit = scanAtExit
        configuration.everyEvent = everyEvent
        let termination = try HeapLauncher(configuration: configuration).run(program)
        FileHandleOutput.standardError("devkit: heap recording written to \(configuration.outputPath)\n")
        if let note = HeapLauncher.recordingNote(for: termination) { FileHandleOutput.standardError("devkit: \(note)\n") }
        if termination != .exited(0) { throw CommandFailure(message: "", exitCode: termination.shellStatus) }
    }

    /// `--pid`: record a running process until it exits or devkit is interrupted.
    private func attach(_ pid: Int32) throws {
        var configuration = HeapLauncher.Configuration(
            agentPath: HeapLauncher.defaultAgentPath(), outputPath: output ?? "heap.\(pid).dkheap")
        configuration.markSignal = markSignal.number
        configuration.interval = interval?.seconds
        configuration.stackDepth = stackDepth
        configuration.everyEvent = everyEvent
        let outcome = try HeapAttach(configuration: configuration, pid: pid).run()
        if configuration.markSignal > 0, outcome.markSignal == 0 {
            FileHandleOutput.standardError("devkit: process \(pid) handles signal \(configuration.markSignal) itself: no signal marks (--mark-signal chooses another)\n")
        }
        let how = outcome.ending == .detached ? "detached from process \(pid), which runs on" : "process \(pid) ended"
        FileHandleOutput.standardError("devkit: heap recording written to \(configuration.outputPath) (\(how))\n")
    }
}
