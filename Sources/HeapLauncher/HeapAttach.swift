#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import System

/// Records a process that is already running (`devkit heap record --pid`), as `heaptrack -p`
/// does: gdb makes the process dlopen libdevkit-heap.so and call `devkit_heap_attach`, which
/// redirects the process's malloc-family calls into the recorder by rewriting its GOT
/// entries (the library cannot interpose: everything was bound long before it came). The
/// recording runs until the process exits or devkit is interrupted; then gdb calls
/// `devkit_heap_detach`, which puts the entries back and closes the recording.
public struct HeapAttach {
    public var configuration: HeapLauncher.Configuration
    public var pid: Int32

    /// How the recording ended.
    public enum Ending: Sendable, Equatable {
        /// The process exited (or was killed) while recorded.
        case processEnded
        /// devkit was interrupted (SIGINT, SIGTERM, SIGHUP) and detached; the process runs on.
        case detached
    }

    /// What `run` did.
    public struct Outcome: Sendable, Equatable {
        public var ending: Ending
        /// The mark signal the recorder handles in the process; 0 when the process had its own
        /// handler for the one asked for (then neither `heap mark` nor `--interval` marks).
        public var markSignal: Int32
    }

    public init(configuration: HeapLauncher.Configuration, pid: Int32) {
        self.configuration = configuration
        self.pid = pid
    }

    /// Signals that end the recording by detaching (never passed on to the process).
    static let stopSignals: [Int32] = [Signal.interrupt, Signal.terminate, Signal.hangup]

    public func run() throws(HeapLauncher.LaunchError) -> Outcome {
        guard FileIO.isReadable(configuration.agentPath) else {
            throw .init(file: configuration.agentPath, "heap recorder library not found (set DEVKIT_HEAP_AGENT or build the devkit-heap product)")
        }
        guard Self.isRunning(pid) else { throw .init(file: nil, "no running process \(pid)") }
        guard let gdb = Self.findGDB() else {
            throw .init(file: nil, "gdb not found on PATH: `devkit heap record --pid` needs gdb to load the recorder into process \(pid)")
        }
        // The process resolves the paths from its own directory: give it absolute ones.
        let output = Self.absolute(configuration.outputPath)
        let agent = Self.absolute(configuration.agentPath)
        for path in [output, agent] where path.contains(where: { $0 == "\n" || $0 == "\0" }) {
            throw .init(file: path, "a path with a newline cannot be passed through gdb")
        }
        switch FileIO.linkType(of: output) {
        case .missing: break
        case .regularFile, .symbolicLink: FileIO.remove(output)
        case .directory, .other: throw .init(file: output, "exists and is not a regular file; choose another -o")
        }

        // Blocked from before the attach: an interrupt while gdb works must not kill devkit
        // between the attach and the detach, which would leave the process recording.
        let waited = SignalMask(Self.stopSignals)
        let previousMask = waited.block()
        defer { previousMask.restore() }

        let attach = try callInProcess(gdb, [
            "call (void*)dlopen(\(Self.cString(agent)), 2)",
            "call (char*)dlerror()",
            "call (int)devkit_heap_attach(\(Self.cString(output)), \(configuration.stackDepth), \(configuration.markSignal), \(configuration.everyEvent ? 1 : 0))",
            "call (int)devkit_heap_attached_mark_signal()",
        ])
        let values = Self.results(attach)
        guard let handle = values.first else { throw refusal(attach) }
        if handle.hasSuffix(" 0x0") {
            let reason = values.dropFirst().first.map(Self.quotedText) ?? "dlopen failed"
            throw .init(file: agent, "process \(pid) could not load the recorder: \(reason)")
        }
        guard values.count >= 3, let status = Int32(values[2]) else { throw refusal(attach) }
        guard status == 0 else {
            let reason = status > 0 ? FileIOError(path: output, errno: status).reason : "no GOT entry of the malloc family found to redirect"
            throw .init(file: output, "the recorder could not start in process \(pid): \(reason)")
        }

        let markSignal = values.count >= 4 ? Int32(values[3]) ?? 0 : 0
        let interval = markSignal > 0 ? configuration.interval.map { max($0, 0.01) } : nil
        var nextMark = interval.map { MonotonicClock.seconds() + $0 }
        while Self.isRunning(pid) {
            let wait = min(nextMark.map { max($0 - MonotonicClock.seconds(), 0) } ?? 0.1, 0.1)
            if waited.wait(timeout: wait) != nil {
                try detach(gdb)
                return Outcome(ending: .detached, markSignal: markSignal)
            }
            if let due = nextMark, let interval, MonotonicClock.seconds() >= due {
                try? ChildProcess(pid: pid).send(markSignal, value: 1)
                nextMark = due + interval
            }
        }
        return Outcome(ending: .processEnded, markSignal: markSignal)
    }

    private func detach(_ gdb: String) throws(HeapLauncher.LaunchError) {
        // The process may have exited meanwhile: its recorder then wrote the end itself.
        guard Self.isRunning(pid) else { return }
        let output = try callInProcess(gdb, ["call (int)devkit_heap_detach()"])
        guard let status = Self.results(output).first, status == "0" || status == "3" else {
            if !Self.isRunning(pid) { return }
            throw refusal(output)
        }
    }

    /// Runs gdb attached to the process with `commands`, in batch mode (gdb detaches at the end).
    private func callInProcess(_ gdb: String, _ commands: [String]) throws(HeapLauncher.LaunchError) -> String {
        var arguments = [gdb, "-nx", "-batch", "-p", String(pid)]
        for command in commands { arguments += ["-ex", command] }
        do {
            // Nothing blocked: devkit blocks the stop signals, and a parent may have blocked more
            // (SIGCHLD blocked leaves gdb waiting for ever on the process it called into).
            let result = try ChildProcess.run(arguments, environment: nil, outputLimit: 1 << 20, mergingStandardError: true,
                                              signalMask: SignalMask([]))
            return String(decoding: result.standardOutput, as: UTF8.self)
        } catch {
            throw .init(file: gdb, "cannot run gdb: \(error.reason)")
        }
    }

    /// One line saying why gdb could not call into the process.
    private func refusal(_ output: String) -> HeapLauncher.LaunchError {
        if output.contains("ptrace:") || output.contains("Could not attach") {
            let scope = ((try? FileIO.readPrefix("/proc/sys/kernel/yama/ptrace_scope", count: 8)) ?? [])
                .prefix(while: { $0 >= 0x30 && $0 <= 0x39 })
            let scopeText = scope.isEmpty ? "" : " (kernel.yama.ptrace_scope is \(String(decoding: scope, as: UTF8.self)))"
            return .init(file: nil, "cannot attach to process \(pid): ptrace refused\(scopeText); attaching needs the same user and ptrace_scope 0, or CAP_SYS_PTRACE (see Docs/heap.md)")
        }
        let line = output.split(separator: "\n").last(where: { !$0.hasPrefix("[") }).map(String.init) ?? "no answer"
        return .init(file: nil, "cannot call into process \(pid) through gdb: \(line)")
    }

    /// gdb's `$N = VALUE` lines, the values in order.
    static func results(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("$"), let equals = line.firstRange(of: " = ") else { return nil }
            return String(line[equals.upperBound...])
        }
    }

    /// The text of gdb's `0x… "text"` for a char*.
    static func quotedText(_ value: String) -> String {
        guard let open = value.firstIndex(of: "\""), let close = value.lastIndex(of: "\""), open < close else { return value }
        return String(value[value.index(after: open)..<close])
    }

    /// A C string literal for gdb.
    static func cString(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\\" || character == "\"" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : DirectoryWalk.currentDirectory() + "/" + path
    }

    /// gdb on PATH (DEVKIT_GDB overrides).
    static func findGDB() -> String? {
        if let override = Environment.nonEmptyValue("DEVKIT_GDB") { return access(override, X_OK) == 0 ? override : nil }
        for directory in (Environment.nonEmptyValue("PATH") ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = String(directory) + "/gdb"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Alive and not a zombie (/proc/PID/stat's state after the command name).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? FileIO.readPrefix("/proc/\(pid)/stat", count: 1024),
              let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count else { return false }
        let state = stat[close + 2]
        return state != UInt8(ascii: "Z") && state != UInt8(ascii: "X")
    }
}
