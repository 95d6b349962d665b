#if canImport(Glibc)
import Glibc
#endif

/// A program started by devkit (`posix_spawnp`), and the signal plumbing around it.
///
/// The general way to run another program: argv searched on PATH, an optional replacement
/// environment, and the child's signal mask and defaults set at spawn time (so a parent that
/// blocks signals to wait for them with `SignalMask.wait` does not hand that mask on). The
/// caller either blocks until the child ends (`waitForExit()`, an editor) or polls
/// (`exitStatus()`, a launcher that also forwards signals and sends marks).
public struct ChildProcess: Sendable, Equatable {
    /// The child's process id.
    public let pid: Int32

    /// Refers to an existing process (one devkit did not start, for `send(_:)`).
    public init(pid: Int32) { self.pid = pid }

    /// How a child ended.
    public enum Termination: Sendable, Equatable {
        /// `exit(status)` or a return from `main` (`WIFEXITED`).
        case exited(Int32)
        /// Ended by signal N (`WIFSIGNALED`).
        case signaled(Int32)

        /// The shell's convention: the status, or 128 + the signal number.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let status): status
            case .signaled(let signal): 128 + signal
            }
        }
    }

    /// A program that could not be started or a process that could not be signalled, with
    /// the operating system's reason.
    public struct Failure: Error, Sendable, Equatable {
        /// `errno` (or `posix_spawn`'s result).
        public var code: Int32
        /// `strerror(code)`: "No such file or directory".
        public var reason: String

        init(code: Int32) {
            self.code = code
            reason = String(cString: strerror(code))
        }
    }

    /// Starts `arguments[0]` (searched on PATH, `posix_spawnp`) with `arguments` as its argv.
    ///
    /// - Parameters:
    ///   - environment: `NAME=value` entries; nil passes devkit's own environment on.
    ///   - signalMask: the child's blocked signals (`POSIX_SPAWN_SETSIGMASK`); nil inherits
    ///     the calling thread's mask.
    ///   - defaultSignals: signals whose handling is reset to the default in the child
    ///     (`POSIX_SPAWN_SETSIGDEF`).
    public static func spawn(_ arguments: [String], environment: [String]? = nil, signalMask: SignalMask? = nil,
                             defaultSignals: [Int32] = []) throws(Failure) -> ChildProcess {
        try spawn(arguments, environment: environment, signalMask: signalMask, defaultSignals: defaultSignals, fileActions: nil)
    }

    /// `spawn` with the child's descriptors arranged by `fileActions` (`run(_:outputLimit:)`).
    static func spawn(_ arguments: [String], environment: [String]?, signalMask: SignalMask?,
                      defaultSignals: [Int32], fileActions: UnsafePointer<posix_spawn_file_actions_t>?) throws(Failure) -> ChildProcess {
        guard let program = arguments.first else { throw Failure(code: ENOENT) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags: Int32 = 0
        if var mask = signalMask?.set {
            posix_spawnattr_setsigmask(&attributes, &mask)
            flags |= Int32(POSIX_SPAWN_SETSIGMASK)
        }
        if !defaultSignals.isEmpty {
            var defaults = SignalMask(defaultSignals).set
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            flags |= Int32(POSIX_SPAWN_SETSIGDEF)
        }
        posix_spawnattr_setflags(&attributes, Int16(truncatingIfNeeded: flags))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = envp.map { posix_spawnp(&pid, program, fileActions, &attributes, argv, $0) }
            ?? posix_spawnp(&pid, program, fileActions, &attributes, argv, environ)
        guard result == 0 else { throw Failure(code: result) }
        return ChildProcess(pid: pid)
    }

    /// How the child ended, or nil while it runs (`waitpid` with `WNOHANG`). Reaps the child:
    /// ask again only while it returns nil.
    public func exitStatus() -> Termination? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return Self.termination(status)
    }

    /// Blocks until the child ends (`waitpid`, retried on `EINTR`); nil when it is not a child
    /// of this process.
    public func waitForExit() -> Termination? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        return Self.termination(status)
    }

    /// Sends `signal` to the process (`kill`).
    public func send(_ signal: Int32) throws(Failure) {
        guard kill(pid, signal) == 0 else { throw Failure(code: errno) }
    }

    /// Sends `signal` with an integer the receiver's `SA_SIGINFO` handler sees in
    /// `si_value` (`sigqueue`).
    public func send(_ signal: Int32, value: Int32) throws(Failure) {
        guard sigqueue(pid, signal, sigval(sival_int: value)) == 0 else { throw Failure(code: errno) }
    }

    private static func termination(_ status: Int32) -> Termination {
        if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
        return .signaled(status & 0x7f)
    }
}
