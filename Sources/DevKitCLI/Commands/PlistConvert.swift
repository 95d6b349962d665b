import ArgumentParser
import PlistTools
import PropertyList

extension Plist {
    struct PlistConvert: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert a property list to another format.",
            discussion: """
                Without -o or --in-place the result goes to standard output. Files are replaced \
                atomically (temporary file, fsync, rename) and keep their permissions. JSON has \
                no dates, data or UIDs: like plutil, a file holding one is refused, naming its \
                key path; with --lossy dates become ISO-8601 strings and data base64 strings (a \
                UID is always an error). xml1 and binary1 are accepted for xml and binary. OpenStep writes numbers, booleans and dates in GNUstep's \
                <*I…>, <*R…>, <*B…>, <*D…> forms.

                Examples:
                  devkit plist convert Info.plist --to binary -o Info.bplist
                  devkit plist convert settings.plist --to xml --in-place
                  devkit plist convert data.bplist --to json
                """
        )

        @Argument(help: "The file to convert (- for standard input).")
        var file: String

        @Option(name: .long, help: "Output format (xml|binary|json|openstep).")
        var to: PlistFormat

        @Option(name: .shortAndLong, help: "Write to this file (- for standard output).")
        var output: String?

        @Flag(name: .long, help: "Replace FILE with the converted version.")
        var inPlace = false

        @Flag(name: .long, help: "JSON: write dates as ISO-8601 strings and data as base64 strings instead of refusing them.")
        var lossy = false

        @OptionGroup var input: InputOptions

        @OptionGroup var writeOptions: WriteOptions

        var invocation: PlistConvertInvocation {
            PlistConvertInvocation(file: file, format: to, output: output, inPlace: inPlace, lossy: lossy,
                                   inputFormat: input.format, backup: writeOptions.backup, force: writeOptions.force)
        }

        func validate() throws { try invocation.validate() }

        func run() throws { try invocation.run() }
    }
}
