import Diagnostics
import System

/// Runs a program under the heap recorder: preloads libdevkit-heap.so, forwards signals,
/// sends interval marks, and reports how the program ended.
public struct HeapLauncher {
    /// What to record and how.
    public struct Configuration: Sendable {
        public var agentPath: String
        public var outputPath: String
        /// 0 disables the mark signal.
        public var markSignal: Int32 = Signal.user2
        /// Seconds between automatic marks; nil for none.
        public var interval: Double?
        public var stackDepth: Int = 64
        /// A forked child records to OUTPUT.PID (true) or not at all (false).
        public var followForks = false
        /// Keep a live-block table and scan for unreachable blocks at exit (--scan-at-exit).
        public var scanAtExit = false
        /// Write every allocation and free, cancelling no pair (--every-event): the peak is
        /// exact even when several threads' short-lived blocks overlap; the recording is larger.
        public var everyEvent = false

        public init(agentPath: String, outputPath: String) {
            self.agentPath = agentPath
            self.outputPath = outputPath
        }

        /// The recorder found by `defaultAgentPath()`, writing to `outputPath` or, when nil,
        /// to `PROGRAM.dkheap` in the current directory (`program` without its directory).
        public init(program: String, outputPath: String?) {
            let baseName = program.split(separator: "/").last.map(String.init) ?? program
            self.init(agentPath: HeapLauncher.defaultAgentPath(), outputPath: outputPath ?? baseName + ".dkheap")
        }
    }

    /// Why the program could not be launched: the file concerned and the reason.
    public struct LaunchError: Error, Sendable, CustomStringConvertible, DiagnosticConvertible {
        public var diagnostic: Diagnostic
        public var description: String { diagnostic.description }

        init(file: String?, _ message: String) { diagnostic = Diagnostic(file: file, message: message) }
    }

    public var configuration: Configuration

    public init(configuration: Configuration) { self.configuration = configuration }

    /// `$DEVKIT_HEAP_AGENT`, else the first of `agentCandidates(besideExecutable:)` that
    /// exists, for the running executable (the first candidate when none does, for the error).
    public static func defaultAgentPath() -> String {
        if let override = Environment.nonEmptyValue("DEVKIT_HEAP_AGENT") { return override }
        guard let exe = FileIO.linkTarget("/proc/self/exe") else { return "libdevkit-heap.so" }
        let candidates = agentCandidates(besideExecutable: exe)
        return candidates.first(where: FileIO.isReadable) ?? candidates[0]
    }

    /// Where the recorder sits relative to the devkit executable `exe` (an absolute path with
    /// symlinks resolved, as /proc/self/exe gives it): beside it in a build tree (SwiftPM puts
    /// products in one directory), then `PREFIX/lib/devkit/` for `PREFIX/bin/devkit`, as
    /// Scripts/install and the Debian package lay it out.
    public static func agentCandidates(besideExecutable exe: String) -> [String] {
        let directory = exe.lastIndex(of: "/").map { String(exe[..<$0]) } ?? "."
        let parent = directory.lastIndex(of: "/").map { String(directory[..<$0]) } ?? directory + "/.."
        return [directory + "/libdevkit-heap.so", parent + "/lib/devkit/libdevkit-heap.so"]
    }

    /// Signals passed on to the program when someone sends them to devkit.
    static let forwardedSignals: [Int32] = [
        Signal.interrupt, Signal.terminate, Signal.hangup, Signal.quit, Signal.user1, Signal.user2, Signal.windowChanged,
        Signal.continue,
    ]

    /// Starts `arguments[0]` (searched on PATH) and waits for it; says how it ended. When the
    /// recorder could not write the whole recording (a full disk), throws once the program has
    /// ended: the error names the recording, how many bytes it holds, why, and how the program
    /// ended (the CLI exits 2: a recording that silently lacks its tail is worse than none).
    public func run(_ arguments: [String]) throws(LaunchError) -> ChildProcess.Termination {
        guard FileIO.isReadable(configuration.agentPath) else {
            throw LaunchError(file: configuration.agentPath, "heap recorder library not found (set DEVKIT_HEAP_AGENT or build the devkit-heap product)")
        }
        // The recorder creates the file with O_EXCL, so that a descendant never truncates it:
        // an old recording is removed first. Only a regular file (or a symlink): never a
        // device like /dev/null, which a root user must not lose to a typo.
        switch FileIO.linkType(of: configuration.outputPath) {
        case .missing: break
        case .regularFile, .symbolicLink: FileIO.remove(configuration.outputPath)
        case .directory, .other:
            throw LaunchError(file: configuration.outputPath, "exists and is not a regular file; choose another -o")
        }

        // Labels for `devkit heap mark` pass through a directory only this user can enter
        // (issue 15, section 4): its path is in the program's environment, which only its
        // owner can read (/proc/PID/environ).
        var markDirectory: String?
        if configuration.markSignal > 0 {
            do { markDirectory = try PrivateDirectory.create(prefix: "devkit-heap-mark.") } catch {
                throw LaunchError(file: error.path, "cannot create the mark directory: \(error.reason)")
            }
        }
        defer { if let markDirectory { PrivateDirectory.remove(markDirectory) } }

        let waited = SignalMask(Self.forwardedSignals + [Signal.childEnded])
        let previousMask = waited.block()
        defer { previousMask.restore() }

        // The program starts with devkit's original mask, except that the signals devkit
        // forwards and the mark signal are deliverable (a parent may have blocked them).
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(arguments, environment: environment(markDirectory: markDirectory),
                                           signalMask: previousMask.removing(Self.forwardedSignals + [configuration.markSignal]),
                                           defaultSignals: Self.forwardedSignals)
        } catch {
            throw LaunchError(file: arguments.first ?? "", "cannot run: \(error.reason)")
        }
        let termination = wait(for: child, signals: waited)
        if let markDirectory, let incomplete = incompleteRecording(in: markDirectory, child: child.pid) {
            throw LaunchError(file: incomplete.file, "recording incomplete: the recorder stopped writing after \(incomplete.bytes) bytes (\(incomplete.reason)); "
                + "the program ran on and \(Self.describe(termination))")
        }
        return termination
    }

    /// What a termination means for the recording: SIGKILL is the one fatal signal the
    /// recorder cannot catch, so the recording has no end record and lacks what its threads
    /// still buffered (FORMAT.md, "Cancelled pairs", bounds it). Nil for any other ending.
    public static func recordingNote(for termination: ChildProcess.Termination) -> String? {
        guard termination == .signaled(Signal.kill) else { return nil }
        return "the program was killed by signal 9 (SIGKILL): the recording has no end record and lacks the events "
            + "its threads still buffered (at most 8,192 events and the pairs counted in the last 0.1 s, 65,536 at most, per thread)"
    }

    /// "exited with status 0", "was killed by signal 9".
    static func describe(_ termination: ChildProcess.Termination) -> String {
        switch termination {
        case .exited(let status): "exited with status \(status)"
        case .signaled(let signal): "was killed by signal \(signal)"
        }
    }

    /// The first recording the recorder noted as stopped early (`incomplete.PID` in the
    /// mark directory, "BYTES ERRNO", written when a write(2) failed: a full disk, a quota):
    /// OUTPUT for the program itself, OUTPUT.PID for a descendant.
    private func incompleteRecording(in directory: String, child: Int32) -> (file: String, bytes: UInt64, reason: String)? {
        let prefix = "incomplete."
        let names = ((try? FileIO.directoryEntries(directory)) ?? []).filter { $0.hasPrefix(prefix) }
        guard let name = names.first(where: { $0 == prefix + String(child) }) ?? names.first,
              let pid = Int32(name.dropFirst(prefix.count)) else { return nil }
        let fields = ((try? FileIO.readPrefix(directory + "/" + name, count: 64)) ?? []).split { $0 == 0x20 || $0 == 0x0A }
        let bytes = fields.first.flatMap { UInt64(String(decoding: $0, as: UTF8.self)) } ?? 0
        let code = fields.dropFirst().first.flatMap { Int32(String(decoding: $0, as: UTF8.self)) } ?? 0
        let file = pid == child ? configuration.outputPath : "\(configuration.outputPath).\(pid)"
        return (file, bytes, code > 0 ? FileIOError(path: file, errno: code).reason : "write failed")
    }

    private func environment(markDirectory: String?) -> [String] {
        var entries = Environment.entries().filter { !$0.hasPrefix("LD_PRELOAD=") && !$0.hasPrefix("DEVKIT_HEAP_") }
        var preload = configuration.agentPath
        if let existing = Environment.nonEmptyValue("LD_PRELOAD") { preload += " " + existing }
        entries.append("LD_PRELOAD=\(preload)")
        entries.append("DEVKIT_HEAP_OUTPUT=\(configuration.outputPath)")
        entries.append("DEVKIT_HEAP_STACK_DEPTH=\(configuration.stackDepth)")
        entries.append("DEVKIT_HEAP_MARK_SIGNAL=\(configuration.markSignal)")
        entries.append("DEVKIT_HEAP_FORK=\(configuration.followForks ? "follow" : "stop")")
        if let markDirectory { entries.append("DEVKIT_HEAP_MARK_DIR=\(markDirectory)") }
        if configuration.scanAtExit { entries.append("DEVKIT_HEAP_SCAN_AT_EXIT=1") }
        if configuration.everyEvent { entries.append("DEVKIT_HEAP_PAIRS=keep") }
        return entries
    }

    private func wait(for child: ChildProcess, signals: SignalMask) -> ChildProcess.Termination {
        let interval = configuration.interval.map { max($0, 0.01) }
        var nextMark = interval.map { MonotonicClock.seconds() + $0 }
        while true {
            if let termination = child.exitStatus() { return termination }
            let wait = nextMark.map { max($0 - MonotonicClock.seconds(), 0) } ?? 1.0
            if let delivery = signals.wait(timeout: wait), delivery.signal != Signal.childEnded, !delivery.fromKernel {
                try? child.send(delivery.signal)
            }
            if let due = nextMark, let interval, MonotonicClock.seconds() >= due, configuration.markSignal > 0 {
                // sigqueue's value 1 tells the recorder this mark came from --interval.
                try? child.send(configuration.markSignal, value: 1)
                nextMark = due + interval
            }
        }
    }

    /// Asks the recorder in process `pid` to start a new generation named `label`. The label
    /// goes as `label.PID` into the process's private mark directory (DEVKIT_HEAP_MARK_DIR in
    /// its environment, made by `run`), which the recorder reads in its signal handler; a
    /// directory that is not this user's alone is refused rather than written to.
    public static func mark(pid: Int32, label: String?, signal: Int32) throws(LaunchError) {
        var labelPath: String?
        if let label, !label.isEmpty {
            guard let directory = ProcessEnvironment.value("DEVKIT_HEAP_MARK_DIR", pid: pid) else {
                throw LaunchError(file: nil, "process \(pid) has no mark directory (not started by `devkit heap record`, or not yours): cannot pass a label")
            }
            guard PrivateDirectory.isPrivate(directory) else {
                throw LaunchError(file: directory, "mark directory is not a directory private to this user (mode 0700, owned by us): label not sent")
            }
            let path = directory + "/label.\(pid)"
            FileIO.remove(path)
            do { try FileIO.createNew(path, contents: Array(label.utf8.prefix(255))) } catch {
                throw LaunchError(file: path, error.reason)
            }
            labelPath = path
        }
        do { try ChildProcess(pid: pid).send(signal) } catch {
            if let labelPath { FileIO.remove(labelPath) }
            throw LaunchError(file: nil, "cannot signal process \(pid): \(error.reason)")
        }
    }
}
