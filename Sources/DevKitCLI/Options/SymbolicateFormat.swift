import ArgumentParser
import CrashSymbolication

/// `devkit symbolicate --format`: one option for both ways crash logs are printed, each
/// log (`summary`, `same`, `json`: `CrashLogFormat`) or grouped with `--group` (`text`,
/// `json`, `html`: `CrashGroupFormat`). `validate()` refuses a format of the other way.
enum SymbolicateFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case summary, same, json, text, html

    /// The format for logs printed one by one; nil for the grouped-only formats.
    var crashLogFormat: CrashLogFormat? {
        switch self {
        case .summary: .summary
        case .same: .same
        case .json: .json
        case .text, .html: nil
        }
    }

    /// The format for `--group`; nil for the one-log-only formats.
    var groupFormat: CrashGroupFormat? {
        switch self {
        case .text: .text
        case .json: .json
        case .html: .html
        case .summary, .same: nil
        }
    }
}
