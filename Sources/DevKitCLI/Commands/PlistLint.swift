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

        func run() throws {
            let findings = files.flatMap { PlistSyntaxCheck.check(path: $0, format: input.format) }
            let text = report.format.reporter.render(findings)
            try FileHandleOutput.standardOutput(text)
            if findings.contains(where: { $0.severity == .error }) {
                throw CommandFailure.findings()
            }
        }
    }
}

extension Plist.PlistLint: DirectlyParsed {
    static let commandPath = ["plist", "lint"]

    static func read(_ arguments: inout DirectArguments) -> Self? {
        var command = Self()
        command.report = .directDefaults
        command.input = .directDefaults
        while let option = arguments.nextOption() {
            guard command.report.read(option, &arguments) == .taken || command.input.read(option, &arguments) == .taken else { return nil }
        }
        guard !arguments.positionals.isEmpty else { return nil }
        command.files = arguments.positionals
        return command
    }
}
