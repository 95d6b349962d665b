import ArgumentParser

extension Heap {
    struct HeapRecord: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "record",
            abstract: "Run a program with the heap recorder and write its recording.",
            discussion: """
                Preloads libdevkit-heap.so, which records every malloc-family call with its \
                stack. Generations start at launch, at each mark signal (`devkit heap mark \
                PID`), every --interval, and whenever the program calls \
                devkit_heap_mark(label) (devkit_heap.h). Signals sent to devkit are passed on; \
                devkit exits with the program's status (128 + N if signal N ended it), or 2 \
                when the recording is incomplete (a full disk): the error says how many bytes \
                were written and how the program ended.

                Examples:
                  devkit heap record -o app.dkheap -- ./app --serve
                  devkit heap record --interval 10 -- ./app
                  devkit heap record --scan-at-exit -- ./app
                  devkit heap record --every-event -- ./app
                  devkit heap record --pid 4242 -o app.dkheap

                With --pid, records a process that is already running: gdb loads the \
                recorder into it (ptrace: the same user with kernel.yama.ptrace_scope 0, or \
                CAP_SYS_PTRACE). Recording lasts until the process exits or devkit gets \
                SIGINT/SIGTERM/SIGHUP; then devkit detaches and the process runs on.
                  devkit heapdiff app.dkheap
                """
        )

        @Option(name: .shortAndLong, help: "The recording to write (default: PROGRAM.dkheap; with --pid, heap.PID.dkheap).")
        var output: String?

        @Option(name: .long, help: "Attach to this running process instead of starting a program (needs gdb and ptrace).")
        var pid: Int32?

        @Option(name: .long, help: "Signal that marks a generation (USR2, USR1, a number, or none).")
        var markSignal: MarkSignal = MarkSignal(number: 12)

        @Option(name: .long, help: "Mark a generation every T seconds (e.g. 10, 0.5, 10s, 2m).")
        var interval: RecordInterval?

        @Option(name: .long, help: "Frames recorded per allocation (1-256).")
        var stackDepth: Int = 64

        @Option(name: .long, help: "A forked child: stop recording it, or follow it into OUTPUT.PID (stop|follow).")
        var fork: ForkPolicy = .stop

        @Flag(name: .long, help: "At exit, stop the threads and classify live blocks as memcheck's leak kinds (for heapdiff --leaks); keeps a live-block table while recording.")
        var scanAtExit = false

        @Flag(name: .long, help: "Write every allocation and free, even blocks freed before any mark could see them (heapdiff's peak exact even when several threads' short-lived blocks overlap; a larger recording).")
        var everyEvent = false

        @Argument(parsing: .captureForPassthrough, help: "The program and its arguments (after --).")
        var command: [String] = []

        func validate() throws {
            // The program's arguments are captured verbatim, `--help` included: help asked for
            // before the program (not after `--`) is devkit's.
            if let first = command.first, first == "--help" || first == "-h" { throw CleanExit.helpRequest(self) }
            try invocation.validate()
        }

        var invocation: HeapRecordInvocation {
            HeapRecordInvocation(
                output: output, pid: pid, markSignal: markSignal, interval: interval, stackDepth: stackDepth, fork: fork,
                scanAtExit: scanAtExit, everyEvent: everyEvent, program: command.first == "--" ? Array(command.dropFirst()) : command)
        }

        func run() throws { try invocation.run() }
    }
}
