import LintKit

extension LintFile {
    /// The plist pack's options for this file's run (the defaults when none were set).
    var plistOptions: PlistLintOptions { options as? PlistLintOptions ?? PlistLintOptions() }
}
