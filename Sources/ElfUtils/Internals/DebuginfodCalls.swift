internal import CLibDebuginfod
import Glibc
import System

// Every libdebuginfod call devkit makes goes through this file: the one place that knows the
// client handle, the negative-errno results, the descriptor and the malloc'd path it returns.
// Glibc is imported for those two (close, free) and strerror.

/// What the progress function reads and writes, behind the client's user-data pointer.
private struct ProgressState {
    /// `MonotonicClock` second after which every transfer is cancelled.
    var deadline: Double
    /// Set when the progress function cancelled a transfer.
    var cancelled = false
}

/// One libdebuginfod client (`debuginfod_client *`) with devkit's progress function, which
/// cancels a transfer once the deadline has passed. Not safe to share between threads: its
/// owner, `DebuginfodClient`, serialises every call.
final class DebuginfodHandle {
    private let client: OpaquePointer
    private let state: UnsafeMutablePointer<ProgressState>

    /// `debuginfod_begin`, which opens libdebuginfod (and libcurl) on first use; nil when the
    /// library cannot make a client.
    init?(deadline: Double) {
        guard let client = debuginfod_begin() else { return nil }
        self.client = client
        state = .allocate(capacity: 1)
        state.initialize(to: ProgressState(deadline: deadline))
        debuginfod_set_user_data(client, state)
        // libdebuginfod calls this about once a second while a transfer runs (and at its
        // start), whether or not bytes arrive: returning nonzero cancels the transfer.
        debuginfod_set_progressfn(client) { client, _, _ in
            guard let raw = debuginfod_get_user_data(client) else { return 0 }
            let state = raw.assumingMemoryBound(to: ProgressState.self)
            guard MonotonicClock.seconds() >= state.pointee.deadline else { return 0 }
            state.pointee.cancelled = true
            return 1
        }
    }

    deinit {
        debuginfod_end(client)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// What one fetch gave: the file's path in libdebuginfod's cache, or the errno and
    /// whether devkit's deadline cancelled it.
    enum Outcome {
        case found(String)
        case failed(code: Int32, reason: String, cancelled: Bool)
    }

    /// `debuginfod_find_debuginfo` or `debuginfod_find_executable` for a binary build-id.
    func find(executable: Bool, buildID: [UInt8]) -> Outcome {
        state.pointee.cancelled = false
        if MonotonicClock.seconds() >= state.pointee.deadline {
            return .failed(code: ECANCELED, reason: "", cancelled: true)
        }
        var path: UnsafeMutablePointer<CChar>?
        let result = buildID.withUnsafeBufferPointer { id in
            executable ? debuginfod_find_executable(client, id.baseAddress, Int32(id.count), &path)
                       : debuginfod_find_debuginfo(client, id.baseAddress, Int32(id.count), &path)
        }
        guard result >= 0 else {
            free(path)
            let code = -result
            return .failed(code: code, reason: String(cString: strerror(code)), cancelled: state.pointee.cancelled)
        }
        // The descriptor is an open copy of the cached file; devkit maps the path itself.
        close(result)
        defer { free(path) }
        guard let path else { return .failed(code: ENOENT, reason: "the client gave no path", cancelled: false) }
        return .found(String(cString: path))
    }
}
