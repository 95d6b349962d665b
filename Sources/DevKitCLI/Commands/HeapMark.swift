import ArgumentParser
import HeapLauncher

extension Heap {
    struct HeapMark: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mark",
            abstract: "Start a new generation in a program running under `devkit heap record`.",
            discussion: """
                Sends the mark signal (SIGUSR2 unless the recording chose another) to PID; the \
                label names the generation in `devkit heapdiff`.

                Example:
                  devkit heap mark 4242 "after opening the document"
                """
        )

        @Argument(help: "The recorded process.")
        var pid: Int32

        @Argument(help: "A name for the generation.")
        var label: String?

        @Option(name: .long, help: "The recording's mark signal (USR2, USR1 or a number).")
        var signal: MarkSignal = MarkSignal(number: 12)

        func validate() throws {
            guard pid > 0 else { throw ValidationError("PID must be a positive process id.") }
            guard signal.number > 0 else { throw ValidationError("--signal cannot be none.") }
        }

        func run() throws {
            try HeapLauncher.mark(pid: pid, label: label, signal: signal.number)
        }
    }
}
