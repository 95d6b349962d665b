import System

/// Which debuginfod servers devkit asks for debug files it does not have, and how long it
/// waits: the client library's own `DEBUGINFOD_URLS` and `DEBUGINFOD_TIMEOUT`, plus a
/// deadline for everything one run fetches, so a server that is down or slow never hangs it.
public struct DebuginfodSettings: Sendable, Equatable {
    /// Server URLs separated by spaces, as `DEBUGINFOD_URLS` holds them.
    public var servers: String
    /// Seconds a transfer may go without progress before libdebuginfod gives it up
    /// (`DEBUGINFOD_TIMEOUT`, whose own default is 90); used only when the user has not set
    /// that variable.
    public var transferTimeout: Int
    /// Seconds all fetches of one client may take together; past it the progress function
    /// cancels the transfer under way and every later fetch fails at once.
    public var deadline: Double

    /// `transferTimeout` when the user sets none: a server that accepts and never answers
    /// costs at most this long.
    public static let defaultTransferTimeout = 10
    /// `deadline` by default: long enough for a few large debug files, short enough for CI.
    public static let defaultDeadline = 30.0

    public init(servers: String, transferTimeout: Int = Self.defaultTransferTimeout, deadline: Double = Self.defaultDeadline) {
        self.servers = servers
        self.transferTimeout = transferTimeout
        self.deadline = deadline
    }

    /// The servers to ask: `option` (`--debuginfod URL`) when given, else a non-empty
    /// `DEBUGINFOD_URLS`; nil (nothing fetched, libdebuginfod never opened) when `offline`
    /// or neither names a server. A positive `DEVKIT_DEBUGINFOD_DEADLINE` (seconds) replaces
    /// the default deadline.
    public static func resolve(option: String?, offline: Bool) -> DebuginfodSettings? {
        if offline { return nil }
        let servers = option ?? Environment.value("DEBUGINFOD_URLS") ?? ""
        guard servers.contains(where: { $0 != " " && $0 != "\t" }) else { return nil }
        var settings = DebuginfodSettings(servers: servers)
        if let text = Environment.nonEmptyValue("DEVKIT_DEBUGINFOD_DEADLINE"), let seconds = Double(text), seconds > 0, seconds.isFinite {
            settings.deadline = seconds
        }
        return settings
    }
}
