/// How the recorded process ended.
public struct RecordingEnd: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// `exit` or a return from `main`.
        case exit
        /// `_exit` / `_Exit` with this status.
        case immediateExit(Int32)
        /// A fatal signal with this number.
        case signal(Int32)
        /// A write failed (full disk): nothing after this point was recorded.
        case writeFailed
        /// The image called exec: its events end here (with `--fork follow` the new image
        /// records to its own file).
        case exec
        /// `heap record --pid` detached: recording stopped, the process ran on.
        case detached
        case other(UInt32)
    }

    public var seq: UInt64
    public var reason: Reason
}
