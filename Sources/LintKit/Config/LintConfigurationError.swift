/// A config file or command line that names something devkit does not know or cannot use
/// (an unknown rule, a `--project-dir` that is not a directory, an unreadable `--app`).
public struct LintConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The config file (or `command line`); empty for a command-line flag, whose message
    /// names it.
    public var source: String
    /// 1-based line in the config file, when known.
    public var line: Int?
    public var message: String

    public init(source: String, line: Int? = nil, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    public var description: String {
        if source.isEmpty { return "error: \(message)" }
        return "\(source)\(line.map { ":\($0)" } ?? ""): error: \(message)"
    }
}
