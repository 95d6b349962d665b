import ArgumentParser
import PlistTools
import PropertyList

extension Plist {
    struct PlistTextconv: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "textconv",
            abstract: "Print a property list as stable text, for git's textconv.",
            discussion: """
                Prints the same tree as `plist print`, never in colour, whatever the input \
                format, so that git can show readable diffs of binary and XML plists. An input \
                that does not parse is reported on standard error with exit status 2.

                Examples:
                  echo '*.plist diff=plist' >> .gitattributes
                  git config diff.plist.textconv "devkit plist textconv"
                  git diff Settings.plist
                  devkit plist textconv Settings.bplist
                """
        )

        @Argument(help: "The property list (- for standard input).")
        var file: String

        @OptionGroup var input: InputOptions

        var invocation: PlistTextconvInvocation { PlistTextconvInvocation(file: file, inputFormat: input.format) }

        func run() throws { try invocation.run() }
    }
}
