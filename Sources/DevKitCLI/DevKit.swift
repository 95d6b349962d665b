import ArgumentParser
import Diagnostics
import System

/// The root command: configuration only.
@main
struct DevKit: ParsableCommand {
    static let version = "0.1.0"
    /// `devkit --version`: the version and the commit built from (Plugins/BuildInfo), e.g.
    /// `0.1.0 (abc1234)`; Scripts/package reads the version from its first word.
    static let versionLine = "\(version) (\(BuildInfo.commit))"

    // Every command names itself (`commandName`): otherwise ArgumentParser derives the name
    // with `String(describing:)`, whose dynamic casts scan every protocol conformance in the
    // binary on each start (measured in Scripts/bench/RESULTS.md, start-up).
    static let configuration = CommandConfiguration(
        commandName: "devkit",
        abstract: "Diagnostics for people who build and ship apps for Apple platforms.",
        discussion: """
            Exit status: 0 success, 1 findings (lint errors, differences), 2 usage or input error.
            """,
        version: versionLine,
        subcommands: [Plist.self, Lint.self, Heap.self, Heapdiff.self, Provision.self, Symbolicate.self, Atos.self, PlistBuddyTool.self, Plutil.self]
    )

    /// Runs the command and maps failures to devkit's exit codes: a library error is rendered
    /// as its diagnostic (exit 2), and ArgumentParser's usage errors (its 64) become 2, like
    /// every other input error.
    static func main() {
        do {
            // `--version` alone is answered before ArgumentParser, which reflects over every
            // command's options (first-time protocol-conformance lookups, each a scan of the
            // binary's 5,000 conformance records) before it looks at the arguments.
            if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--version" {
                try FileHandleOutput.standardOutput(versionLine + "\n")
                return
            }
            if let (personality, arguments) = Personality.match(CommandLine.arguments) {
                try personality.run(arguments)
                return
            }
            if let invocation = DirectParse.invocation(Array(CommandLine.arguments.dropFirst())) {
                try invocation.run()
                return
            }
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty {
                FileHandleOutput.standardError(failure.message.hasSuffix("\n") ? failure.message : failure.message + "\n")
            }
            CurrentProcess.exit(failure.exitCode)
        } catch let error as any DiagnosticConvertible {
            FileHandleOutput.standardError(error.diagnostic.description + "\n")
            CurrentProcess.exit(2)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandleOutput.standardError(fullMessage(for: error) + "\n")
                CurrentProcess.exit(2)
            }
            exit(withError: error)
        }
    }
}
