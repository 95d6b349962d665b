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

    /// Starts `arguments[0]` (searched on PATH) and waits for it; says how it ended.
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

        let waited = SignalMask(Self.forwardedSignals + [Signal.childEnded])
        let previousMask = waited.block()
        defer { previousMask.restore() }

        // The program starts with devkit's original mask, except that the signals devkit
        // forwards and the mark signal are deliverable (a parent may have blocked them).
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(arguments, environment: environment(),
                                           signalMask: previousMask.removing(Self.forwardedSignals + [configuration.markSignal]),
                                           defaultSignals: Self.forwardedSignals)
        } catch {
            throw LaunchError(file: arguments.first ?? "", "cannot run: \(error.reason)")
        }
        return wait(for: child, signals: waited)
    }

    private func environment() -> [String] {
        var entries = Environment.entries().filter { !$0.hasPrefix("LD_PRELOAD=") && !$0.hasPrefix("DEVKIT_HEAP_") }
        var preload = configuration.agentPath
        if let existing = Environment.nonEmptyValue("LD_PRELOAD") { preload += " " + existing }
        entries.append("LD_PRELOAD=\(preload)")
        entries.append("DEVKIT_HEAP_OUTPUT=\(configuration.outputPath)")
        entries.append("DEVKIT_HEAP_STACK_DEPTH=\(configuration.stackDepth)")
        entries.append("DEVKIT_HEAP_MARK_SIGNAL=\(configuration.markSignal)")
        entries.append("DEVKIT_HEAP_FORK=\(configuration.followForks ? "follow" : "stop")")
        if configuration.scanAtExit { entries.append("DEVKIT_HEAP_SCAN_AT_EXIT=1") }
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

    /// Asks the recorder in process `pid` to start a new generation named `label`: the
    /// label goes through a file the recorder reads in its signal handler.
    public static func mark(pid: Int32, label: String?, signal: Int32) throws(LaunchError) {
        let path = "/tmp/devkit-heap-mark.\(pid)"
        FileIO.remove(path)
        if let label, !label.isEmpty {
            do { try FileIO.createNew(path, contents: Array(label.utf8.prefix(255))) } catch {
                throw LaunchError(file: path, error.reason)
            }
        }
        do { try ChildProcess(pid: pid).send(signal) } catch {
            FileIO.remove(path)
            throw LaunchError(file: nil, "cannot signal process \(pid): \(error.reason)")
        }
    }
}
