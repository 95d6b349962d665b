/// Facts about a run that a rule pack's rules read, set from the command line (the plist
/// pack's `PlistLintOptions`: `--built-product`, `--configuration`, …). The engine hands them
/// to every rule in `LintFile.options` and knows nothing else about them.
public protocol LintOptions: Sendable {
    /// The command-line flags that set these options, in the words `devkit lint --explain`
    /// notes beside an example (`--built-product`, `--configuration release`).
    var flags: [String] { get }
}
