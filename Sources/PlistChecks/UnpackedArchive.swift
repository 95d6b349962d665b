import LintKit
import System

/// An archive `devkit lint` unpacked: where, and what its files are called in reports.
struct UnpackedArchive {
    /// The temporary directory holding it, removed after the run.
    var directory: TemporaryDirectory
    /// The unpacked directory that was linted (`/tmp/devkit-lint-x/Payload/App.app`).
    var root: String
    /// What that directory is called in reports (`App.ipa!Payload/App.app`).
    var shownAs: String

    /// Names the archive instead of the temporary directory in `result`'s findings (files and
    /// messages, which name bundles and binaries) and input errors.
    func rename(_ result: inout LintResult) {
        for index in result.findings.indices {
            result.findings[index].file = result.findings[index].file.replacing(root, with: shownAs)
            result.findings[index].message = result.findings[index].message.replacing(root, with: shownAs)
        }
        result.inputErrors = result.inputErrors.map { $0.replacing(root, with: shownAs) }
    }
}
