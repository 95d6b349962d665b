#if canImport(Glibc)
import Glibc
#endif

/// A program run as a child process that inherits the standard streams (`posix_spawn`,
/// `waitpid`).
public struct ChildProcess: Sendable {
    /// The child's process id.
    public let id: Int32
    /// The program that runs, for error messages.
    public let executable: String

    /// Starts `executable` (a path; PATH is not searched) with `arguments` as its argv
    /// (argv[0] included) and `environment` as `NAME=value` entries, or this process's
    /// environment when nil. A failure to start is thrown with errno's text.
    public static func spawn(_ executable: String, arguments: [String], environment: [String]? = nil) throws(FileIOError) -> ChildProcess {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result: Int32
        if let environment {
            var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
            defer { for pointer in envp { free(pointer) } }
            result = posix_spawn(&pid, executable, nil, nil, &argv, &envp)
        } else {
            result = posix_spawn(&pid, executable, nil, nil, &argv, environ)
        }
        guard result == 0 else { throw FileIOError(path: executable, reason: String(cString: strerror(result))) }
        return ChildProcess(id: pid, executable: executable)
    }

    /// Waits for the child to end (retrying when a signal interrupts the wait); returns its
    /// exit status, or 128 + the signal number when a signal killed it.
    public func waitForExit() throws(FileIOError) -> Int32 {
        var status: Int32 = 0
        while waitpid(id, &status, 0) < 0 {
            if errno != EINTR { throw FileIOError(path: executable, reason: String(cString: strerror(errno))) }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }
}
