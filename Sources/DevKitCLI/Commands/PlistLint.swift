import ArgumentParser
import LintKit
import PlistChecks

extension Plist {
    struct PlistLint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Check that files are well-formed property lists.",
            discussion: """
                Checks every file, in any format, and goes on past bad ones. Prints \
                file:line:col: error: message (binary files: file: offset 0x1a2: error: …). \
                Exit status 1 when any file has an error, 0 otherwise.

                Examples:
                  devkit plist lint Info.plist Resources/*.plist
                  devkit plist lint --format json Settings.bundle/Root.plist
                """
        )

        @Argument(help: "Files to check (- for standard input).")
        var files: [String]

        @OptionGroup var report: ReportOptions
        @OptionGroup var input: InputOptions

        var invocation: PlistLintInvocation {
            PlistLintInvocation(files: files, format: report.format, inputFormat: input.format)
        }

        func run() throws { try invocation.run() }
    }
}
