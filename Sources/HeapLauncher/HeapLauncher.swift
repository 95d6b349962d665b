#if canImport(Glibc)
import Glibc
#endif

/// Runs a program under the heap recorder: preloads libdevkit-heap.so, forwards signals,
/// sends interval marks, and reports how the program ended.
public struct HeapLauncher {
    /// What to record and how.
    public struct Configuration: Sendable {
        public var agentPath: String
        public var outputPath: String
        /// 0 disables the mark signal.
        public var markSignal: Int32 = SIGUSR2
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
    }

    /// How the recorded program ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)

        /// The shell's convention: the status, or 128 + the signal number.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let status): status
            case .signaled(let signal): 128 + signal
            }
        }
    }

    public struct LaunchError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public var configuration: Configuration

    public init(configuration: Configuration) { self.configuration = configuration }

    /// The recorder beside the running executable (SwiftPM puts products in one directory),
    /// or `$DEVKIT_HEAP_AGENT`.
    public static func defaultAgentPath() -> String {
        if let override = getenv("DEVKIT_HEAP_AGENT"), override.pointee != 0 { return String(cString: override) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return "libdevkit-heap.so" }
        let exe = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = exe.lastIndex(of: "/").map { String(exe[..<$0]) } ?? "."
        return directory + "/libdevkit-heap.so"
    }

    /// Signals passed on to the program when someone sends them to devkit.
    static let forwardedSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT]

    /// Starts `arguments[0]` (searched on PATH) and waits for it.
    public func run(_ arguments: [String]) throws(LaunchError) -> Termination {
        guard access(configuration.agentPath, R_OK) == 0 else {
            throw LaunchError(message: "\(configuration.agentPath): error: heap recorder library not found (set DEVKIT_HEAP_AGENT or build the devkit-heap product)")
        }
        // The recorder creates the file with O_EXCL, so that a descendant never truncates it:
        // an old recording is removed first. Only a regular file (or a symlink): never a
        // device like /dev/null, which a root user must not lose to a typo.
        var existing = stat()
        if lstat(configuration.outputPath, &existing) == 0 {
            let type = existing.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFLNK else {
                throw LaunchError(message: "\(configuration.outputPath): error: exists and is not a regular file; choose another -o")
            }
            unlink(configuration.outputPath)
        }

        var waited = sigset_t()
        sigemptyset(&waited)
        for signal in Self.forwardedSignals + [SIGCHLD] { sigaddset(&waited, signal) }
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &waited, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }

        let pid = try spawn(arguments, mask: previousMask)
        return wait(for: pid, signals: waited)
    }

    private func environment() -> [String] {
        var entries: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            index += 1
            if text.hasPrefix("LD_PRELOAD=") || text.hasPrefix("DEVKIT_HEAP_") { continue }
            entries.append(text)
        }
        var preload = configuration.agentPath
        if let existing = getenv("LD_PRELOAD"), existing.pointee != 0 { preload += " " + String(cString: existing) }
        entries.append("LD_PRELOAD=\(preload)")
        entries.append("DEVKIT_HEAP_OUTPUT=\(configuration.outputPath)")
        entries.append("DEVKIT_HEAP_STACK_DEPTH=\(configuration.stackDepth)")
        entries.append("DEVKIT_HEAP_MARK_SIGNAL=\(configuration.markSignal)")
        entries.append("DEVKIT_HEAP_FORK=\(configuration.followForks ? "follow" : "stop")")
        if configuration.scanAtExit { entries.append("DEVKIT_HEAP_SCAN_AT_EXIT=1") }
        return entries
    }

    private func spawn(_ arguments: [String], mask: sigset_t) throws(LaunchError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The program starts with devkit's original mask, except that the signals devkit
        // forwards and the mark signal are deliverable (a parent may have blocked them).
        var childMask = mask
        for signal in Self.forwardedSignals + [configuration.markSignal] where signal > 0 { sigdelset(&childMask, signal) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Self.forwardedSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &childMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment().map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], nil, &attributes, argv, envp)
        guard result == 0 else {
            throw LaunchError(message: "\(arguments[0]): error: cannot run: \(String(cString: strerror(result)))")
        }
        return pid
    }

    private func wait(for pid: pid_t, signals: sigset_t) -> Termination {
        var set = signals
        let interval = configuration.interval.map { max($0, 0.01) }
        var nextMark = interval.map { monotonicSeconds() + $0 }
        while true {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
                return .signaled(status & 0x7f)
            }
            let wait = nextMark.map { max($0 - monotonicSeconds(), 0) } ?? 1.0
            var timeout = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - Double(Int(wait))) * 1e9))
            var info = siginfo_t()
            let signal = sigtimedwait(&set, &info, &timeout)
            if signal > 0, signal != SIGCHLD, info.si_code != 0x80 /* SI_KERNEL: the terminal sent it to the whole group */ {
                kill(pid, signal)
            }
            if let due = nextMark, let interval, monotonicSeconds() >= due, configuration.markSignal > 0 {
                // sigqueue's value 1 tells the recorder this mark came from --interval.
                sigqueue(pid, configuration.markSignal, sigval(sival_int: 1))
                nextMark = due + interval
            }
        }
    }

    private func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Asks the recorder in process `pid` to start a new generation named `label`: the
    /// label goes through a file the recorder reads in its signal handler.
    public static func mark(pid: pid_t, label: String?, signal: Int32) throws(LaunchError) {
        let path = "/tmp/devkit-heap-mark.\(pid)"
        unlink(path)
        if let label, !label.isEmpty {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw LaunchError(message: "\(path): error: \(String(cString: strerror(errno)))") }
            var bytes = Array(label.utf8.prefix(255))
            _ = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        guard kill(pid, signal) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(path)
            throw LaunchError(message: "error: cannot signal process \(pid): \(reason)")
        }
    }
}
