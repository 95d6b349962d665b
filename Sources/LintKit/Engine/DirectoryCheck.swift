/// A check over a whole directory (an `.app` bundle) rather than one file: `devkit lint`
/// runs it on each directory named on the command line that it applies to, beside the
/// per-file rules over the files inside. Its findings go through `engine`, so they obey the
/// run's configuration like any rule's.
public protocol DirectoryCheck: Sendable {
    /// Whether the check has something to say about `directory` (by name: `App.app`).
    func applies(to directory: String) -> Bool
    /// The findings for `directory`, and one `path: error: …` line for each input that could
    /// not be read (the run's exit status 2).
    func check(_ directory: String, engine: LintEngine) -> (findings: [Finding], inputErrors: [String])
}
