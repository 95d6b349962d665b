import Diagnostics

/// A failed command: what to print on stderr and the exit status.
///
/// Library errors need no conversion: `DevKit.main` renders any `DiagnosticConvertible` error
/// (exit 2). A command throws a `CommandFailure` for what only it knows: findings (exit 1) or
/// a usage problem it found itself.
struct CommandFailure: Error {
    var message: String
    var exitCode: Int32

    /// Exit 1: the command ran and found something (lint errors, a difference).
    static func findings(_ message: String = "") -> CommandFailure { CommandFailure(message: message, exitCode: 1) }
    /// Exit 2: bad input or usage.
    static func input(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 2) }
    /// Exit 2, with the error rendered in devkit's one format (`file:line:col: error: message`).
    static func diagnostic(_ error: some DiagnosticConvertible) -> CommandFailure { .input(error.diagnostic.description) }
}
