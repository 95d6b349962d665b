import ArgumentParser
import PropertyList

extension PlistFormat: ExpressibleByArgument {}

/// How to read input files: detected from content unless `--input-format` says otherwise.
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("input-format"), help: "Read input as this format instead of detecting it (\(PlistFormat.allCases.map(\.rawValue).joined(separator: "|"))).")
    var format: PlistFormat?
}
