#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// What a program run to completion by `run(_:outputLimit:)` printed and how it ended.
    public struct Output: Sendable, Equatable {
        public var termination: Termination
        /// Everything it wrote to standard output.
        public var standardOutput: [UInt8]
    }

    /// Runs `arguments` (searched on PATH) to completion with standard input and standard
    /// error on `/dev/null` and standard output collected: for asking another tool (git) a
    /// question. More than `outputLimit` bytes of output kills the child and throws `EFBIG`,
    /// so a runaway tool cannot exhaust memory.
    /// `environment`: `NAME=value` entries; nil passes devkit's own on. `mergingStandardError`:
    /// standard error goes with standard output (a tool like gdb that says why it failed there).
    /// `signalMask`: the child's blocked signals; nil inherits devkit's.
    public static func run(_ arguments: [String], environment: [String]? = nil, outputLimit: Int = 256 << 20,
                           mergingStandardError: Bool = false, signalMask: SignalMask? = nil) throws(Failure) -> Output {
        var fds: [Int32] = [-1, -1]
        // Close-on-exec on both ends: the child gets the write end only through dup2. (Glibc's
        // module does not export pipe2; devkit spawns from one thread at a time, so the window
        // between pipe and fcntl cannot leak the ends into another child.)
        guard pipe(&fds) == 0 else { throw Failure(code: errno) }
        let readEnd = fds[0], writeEnd = fds[1]
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        var readEndOpen = true
        defer { if readEndOpen { close(readEnd) } }
        let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
        posix_spawn_file_actions_init(actions)
        defer {
            posix_spawn_file_actions_destroy(actions)
            actions.deallocate()
        }
        posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(actions, writeEnd, 1)
        if mergingStandardError {
            posix_spawn_file_actions_adddup2(actions, writeEnd, 2)
        } else {
            posix_spawn_file_actions_addopen(actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let child: ChildProcess
        do {
            child = try spawn(arguments, environment: environment, signalMask: signalMask, defaultSignals: [], fileActions: actions)
        } catch {
            close(writeEnd)
            throw error
        }
        close(writeEnd)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var tooLarge = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            if count == 0 { break }
            // The cap is checked before appending, so memory stays bounded by it.
            guard output.count + count <= outputLimit else {
                tooLarge = true
                try? child.send(SIGKILL)
                break
            }
            output += buffer[0..<count]
        }
        close(readEnd)
        readEndOpen = false
        let termination = child.waitForExit() ?? .exited(-1)
        if tooLarge { throw Failure(code: EFBIG) }
        return Output(termination: termination, standardOutput: output)
    }
}
