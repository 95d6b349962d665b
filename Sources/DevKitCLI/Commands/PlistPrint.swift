import ArgumentParser
import PlistTools
import PropertyList

extension Plist {
    struct PlistPrint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "print",
            abstract: "Print property lists as a readable tree (like plutil -p).",
            discussion: """
                Examples:
                  devkit plist print Info.plist
                  devkit plist print --keypaths App.entitlements | grep icloud
                  cat settings.bplist | devkit plist print -
                """
        )

        @Argument(help: "Files to print (- for standard input).")
        var files: [String]

        @Flag(name: .long, help: "One 'key.path = value' line per leaf, for grep.")
        var keypaths = false

        @Option(name: .long, help: "Show types dimmed: auto (on a colour terminal), always, never.")
        var color: ColorChoice = .auto

        @OptionGroup var input: InputOptions

        var invocation: PlistPrintInvocation {
            PlistPrintInvocation(files: files, keypaths: keypaths, color: color, inputFormat: input.format)
        }

        func run() throws { try invocation.run() }
    }
}
