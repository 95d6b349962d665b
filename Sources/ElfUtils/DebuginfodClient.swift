import Synchronization
import System

/// Fetches debug files and executables by build-id from debuginfod servers through elfutils'
/// libdebuginfod, which keeps what it fetched in its own cache (`DEBUGINFOD_CACHE_PATH`, else
/// `$XDG_CACHE_HOME/debuginfod_client`) and answers from there next time.
///
/// Nothing happens until the first fetch: only then are `DEBUGINFOD_URLS` (from the
/// settings) and `DEBUGINFOD_TIMEOUT` (unless the user set it) put in the environment, where
/// the library reads them, and libdebuginfod (with libcurl) opened. All fetches of one client
/// share `settings.deadline`, counted from the first; calls are serialised.
///
/// ```swift
/// let client = DebuginfodClient(settings: DebuginfodSettings(servers: "http://127.0.0.1:8002"))
/// switch client.fetch(.debugInfo, buildID: id) { case .success(let path): …; case .failure(let error): … }
/// ```
public final class DebuginfodClient: Sendable {
    /// What to fetch for a build-id.
    public enum Artifact: String, Sendable {
        /// The separate debug file (`/buildid/ID/debuginfo`).
        case debugInfo = "debug info"
        /// The executable or library itself (`/buildid/ID/executable`).
        case executable
    }

    public let settings: DebuginfodSettings

    private enum State {
        case idle
        case open(DebuginfodHandle)
        /// debuginfod_begin failed; no fetch is tried again.
        case unavailable
    }

    private struct Box: @unchecked Sendable { var state: State }

    private let box = Mutex(Box(state: .idle))

    public init(settings: DebuginfodSettings) { self.settings = settings }

    /// The fetched file's path (in libdebuginfod's cache), or why there is none. The caller
    /// checks that the file is what it asked for (its build-id).
    public func fetch(_ artifact: Artifact, buildID: [UInt8]) -> Result<String, DebuginfodError> {
        let hex = buildID.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        func failure(_ code: Int32, _ reason: String) -> Result<String, DebuginfodError> {
            .failure(DebuginfodError(buildID: hex, artifact: artifact.rawValue, servers: settings.servers, code: code, reason: reason))
        }
        guard !buildID.isEmpty else { return failure(0, "no build-id") }
        return box.withLock { box -> Result<String, DebuginfodError> in
            if case .idle = box.state {
                Environment.set("DEBUGINFOD_URLS", to: settings.servers)
                Environment.set("DEBUGINFOD_TIMEOUT", to: String(settings.transferTimeout), overwrite: false)
                box.state = DebuginfodHandle(deadline: MonotonicClock.seconds() + settings.deadline).map(State.open) ?? .unavailable
            }
            guard case .open(let handle) = box.state else { return failure(0, "libdebuginfod could not start a client") }
            switch handle.find(executable: artifact == .executable, buildID: buildID) {
            case .found(let path):
                return .success(path)
            case .failed(_, _, cancelled: true):
                return failure(0, "no answer within \(Self.seconds(settings.deadline)) s (devkit's deadline for all fetches)")
            case .failed(let code, let reason, cancelled: false):
                return failure(code, Self.explained(code: code, reason: reason))
            }
        }
    }

    /// libdebuginfod's errno made to say what it means here.
    private static func explained(code: Int32, reason: String) -> String {
        switch code {
        case 2: "not found on the server (\(reason))"  // ENOENT: every server answered 404
        case 62: "no progress within DEBUGINFOD_TIMEOUT (\(reason))"  // ETIME
        default: reason
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
