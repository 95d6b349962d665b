import ArgumentParser
import System
import PlistTools
import PropertyList

extension Plist {
    struct PlistFmt: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fmt",
            abstract: "Rewrite property lists in canonical form, in their own format.",
            discussion: """
                Each file is read (format detected from the content) and written back in the \
                same format by devkit's writer: XML in Apple's layout (declaration, DOCTYPE, tab \
                indentation), binary as devkit writes bplist00, OpenStep with four-space \
                indentation, JSON with two. Values and key order are kept (unless --sort-keys). \
                --indent changes XML only.

                Comments: a .strings file is written one "key" = "value"; a line with its \
                comments kept (each stays with the entry it precedes, also with --sort-keys). \
                Any other file with comments is left as it is with a warning, since the \
                canonical layout has no place for them; --drop-comments formats it anyway.

                Files that change are replaced atomically (temporary file, fsync, rename) and \
                keep their permissions; each is listed on standard output as \
                `reformatted FILE`. Files already in canonical form are not touched. With \
                --check nothing is written: the files that would change are listed, one path a \
                line. A FILE of - reads standard input and writes the formatted result to \
                standard output (with --check, only the exit status).

                A file that does not parse is reported as file:line:col: error: message and \
                skipped; the other files are still formatted. Exit status 2 if any file had an \
                error, else 1 if --check found a file that would change, else 0.

                Examples:
                  devkit plist fmt Info.plist Resources/*.plist
                  devkit plist fmt --check --sort-keys $(git ls-files '*.plist')
                  devkit plist fmt --indent 2 Settings.plist
                  devkit plist convert data.json --to xml | devkit plist fmt --sort-keys -
                """
        )

        @Argument(help: "Files to format in place (- for standard input to standard output).")
        var files: [String]

        @Flag(name: .long, help: "Write nothing; list the files that would change and exit 1 if any would.")
        var check = false

        @Flag(name: .long, help: "Sort every dictionary's keys (by Unicode scalars).")
        var sortKeys = false

        @Option(name: .long, help: ArgumentHelp("XML indentation: tabs, or N spaces (1-16). JSON and OpenStep ignore it.", valueName: "tabs|N"))
        var indent: XMLIndent = .tabs

        @Flag(name: .long, help: "Format XML and OpenStep files that have comments, dropping the comments.")
        var dropComments = false

        @OptionGroup var input: InputOptions

        @OptionGroup var writeOptions: WriteOptions

        var invocation: PlistFmtInvocation {
            PlistFmtInvocation(files: files, check: check, sortKeys: sortKeys, indent: indent, dropComments: dropComments,
                               inputFormat: input.format, backup: writeOptions.backup, force: writeOptions.force)
        }

        func validate() throws { try invocation.validate() }

        func run() throws { try invocation.run() }
    }
}

extension XMLIndent: ExpressibleByArgument {
    /// `tabs`, or a space count in `XMLIndent.validSpaceCounts`.
    public init?(argument: String) {
        if argument == "tabs" {
            self = .tabs
            return
        }
        guard let count = Int(argument), XMLIndent.validSpaceCounts.contains(count) else { return nil }
        self = .spaces(count)
    }

    public var defaultValueDescription: String {
        switch self {
        case .tabs: "tabs"
        case .spaces(let count): String(count)
        }
    }
}
