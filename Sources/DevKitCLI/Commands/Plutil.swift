import ArgumentParser
import PlistTools
import System

/// `devkit plutil ARGS…`, or devkit run through a link named plutil: Apple's plutil command line.
struct Plutil: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plutil",
        abstract: "Apple's plutil on Linux: -lint, -p, -convert, -extract, -insert, -replace, -remove, -type, -create.",
        discussion: """
            The same flags, output and exit statuses (0, or 1 on any failure) as plutil, for \
            build scripts moved to Linux; edits change only the edited lines of XML files. \
            Also runs when devkit is invoked through a link named plutil. `devkit plutil -help` \
            lists the options.

            Examples:
              devkit plutil -convert xml1 Info.plist
              devkit plutil -extract CFBundleVersion raw Info.plist
              devkit plutil -replace CFBundleVersion -string 43 Info.plist
            """
    )

    @Argument(parsing: .captureForPassthrough, help: "plutil's own arguments.")
    var arguments: [String] = []

    func run() throws {
        if let first = arguments.first, first == "--help" {
            try FileHandleOutput.standardOutput(Self.helpMessage() + "\n")
            return
        }
        try Self.run(arguments)
    }

    static func run(_ arguments: [String]) throws {
        var output = ByteWriter()
        defer { output.deallocate() }
        let status = PlutilTool.run(arguments, write: { output.write($0); output.flushIfFull() }, writeError: {
            output.flush()
            FileHandleOutput.standardError($0)
        })
        output.flush()
        if status != 0 { throw CommandFailure(message: "", exitCode: status) }
    }
}
