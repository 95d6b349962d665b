import ArgumentParser
import PlistTools
import PropertyList

extension Plist {
    struct PlistDiff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Show how two property lists differ, by key path.",
            discussion: """
                Compares values, not bytes: the files may be in different formats (XML against \
                binary), and key order and formatting are no difference. One line per \
                difference: + path = value (only in B), - path = value (only in A), \
                ~ path: old → new (a change of type names both types). Array elements are \
                aligned, so one inserted element is one + line. Paths are dotted key paths as \
                `plist get` takes them; : is the whole file. Exit status 0 when equal (nothing \
                printed), 1 when different, 2 on an input error.

                Examples:
                  devkit plist diff Info.plist build/Info.plist
                  devkit plist diff Settings.plist Settings.bplist --format json
                  devkit plist convert old.json --to binary | devkit plist diff - new.plist
                """
        )

        @Argument(help: "The old property list (- for standard input).")
        var a: String

        @Argument(help: "The new property list (- for standard input).")
        var b: String

        @Option(name: .long, help: "How to print differences (text|json).")
        var format: ReportFormat = .text

        @Option(name: .long, help: "Colour the text lines as git diff does (auto|always|never; auto: on a terminal, unless NO_COLOR is set).")
        var color: ColorChoice = .auto

        @OptionGroup var input: InputOptions

        func validate() throws { try invocation.validate() }

        var invocation: PlistDiffInvocation {
            PlistDiffInvocation(a: a, b: b, format: format, color: color, inputFormat: input.format)
        }

        func run() throws { try invocation.run() }
    }
}
