import ArgumentParser
import Diagnostics
import Symbolication

/// `devkit atos ARGS…`, or devkit run through a link named `atos`: Apple's atos command line.
struct Atos: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atos",
        abstract: "Apple's atos on Linux: atos -o BINARY|DSYM [-arch A] [-l LOADADDR | -s SLIDE | -offset] [-i] [-fullPath] [-f FILE] [--names short|full] [ADDRESS…].",
        discussion: """
            The same flags and output lines as atos on macOS, for scripts moved to Linux; ELF \
            files work too. Also runs when devkit is invoked through a link named atos. \
            Swift names are short by default, as Apple's atos and Xcode print them \
            (closure #1 in totalArea(_:)); --names full gives swift-demangle's form.

            Examples:
              devkit atos -o App.app.dSYM -l 0x104000000 0x104f6c394
              ln -s "$(command -v devkit)" ~/bin/atos && atos -o App -arch arm64 -i 0x100003f20
              devkit atos -o App --names full 0x100003f20
            """
    )

    @Argument(parsing: .captureForPassthrough, help: "atos's own arguments.")
    var arguments: [String] = []

    func run() throws {
        // ArgumentParser passes `devkit atos --help` through with the rest.
        if let first = arguments.first, ["--help", "-help", "-h"].contains(first) {
            try FileHandleOutput.standardOutput(Self.helpMessage() + "\n")
            return
        }
        try Self.run(arguments)
    }

    static func run(_ arguments: [String]) throws {
        let parsed: AtosArguments
        do { parsed = try AtosArguments.parse(arguments) } catch {
            throw CommandFailure.input("atos: \(error.message)\n\(AtosArguments.usage)")
        }
        let session = try AtosSession(parsed)
        try session.run(diagnostics: FileHandleOutput.standardError)
    }
}
