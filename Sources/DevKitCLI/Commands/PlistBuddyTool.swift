import ArgumentParser
import PlistTools
import System

/// `devkit PlistBuddy ARGS…`, or devkit run through a link named PlistBuddy: Apple's
/// PlistBuddy command line (devkit's own, all-or-nothing form is `devkit plist buddy`).
struct PlistBuddyTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "PlistBuddy",
        abstract: "Apple's PlistBuddy on Linux: PlistBuddy [-x] [-c CMD]... FILE, or interactive.",
        discussion: """
            Commands run one by one as PlistBuddy runs them: a failing one prints its error and \
            the rest still run (exit status 1). After -c commands the changes are saved (in \
            place, only the changed entries' lines change for XML and OpenStep files); in \
            interactive mode (no -c: a Command: prompt, also on a pipe) only on Save. Also runs \
            when devkit is invoked through a link named PlistBuddy.

            Examples:
              devkit PlistBuddy -c "Set :CFBundleVersion 42" Info.plist
              printf 'Print :CFBundleIdentifier\\nExit\\n' | devkit PlistBuddy Info.plist
            """
    )

    @Argument(parsing: .captureForPassthrough, help: "PlistBuddy's own arguments.")
    var arguments: [String] = []

    func run() throws {
        if let first = arguments.first, ["--help", "-help"].contains(first) {
            try FileHandleOutput.standardOutput(Self.helpMessage() + "\n")
            return
        }
        try Self.run(arguments)
    }

    static func run(_ arguments: [String]) throws {
        var output = ByteWriter()
        defer { output.deallocate() }
        let status = PlistBuddyShell.run(arguments, write: { output.write($0); output.flush() },
                                         writeError: FileHandleOutput.standardError, readLine: { Swift.readLine() })
        output.flush()
        if status != 0 { throw CommandFailure(message: "", exitCode: status) }
    }
}
