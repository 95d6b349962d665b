import Diagnostics

/// A file a debuginfod server did not give: which build-id, which servers were asked, and why
/// (libdebuginfod's negative errno, or devkit's deadline).
public struct DebuginfodError: Error, Equatable, Sendable, CustomStringConvertible, DiagnosticConvertible {
    /// The build-id asked for, lowercase hex.
    public var buildID: String
    /// What was asked for: "debug info" or "executable".
    public var artifact: String
    /// The servers asked (`DEBUGINFOD_URLS`).
    public var servers: String
    /// The errno libdebuginfod returned (negated back to positive); 0 for devkit's own refusals.
    public var code: Int32
    /// The reason, for a person: the errno's text, or the deadline that ran out.
    public var reason: String

    public init(buildID: String, artifact: String, servers: String, code: Int32, reason: String) {
        self.buildID = buildID
        self.artifact = artifact
        self.servers = servers
        self.code = code
        self.reason = reason
    }

    /// Every server answered that it has no such file (ENOENT), as opposed to a server that
    /// failed (refused, timed out, cancelled).
    public var isNotFound: Bool { code == 2 }

    public var description: String { "no \(artifact) for build-id \(buildID) from debuginfod (\(servers)): \(reason)" }

    public var diagnostic: Diagnostic { Diagnostic(severity: .warning, message: description, kind: .io) }
}
