import ArgumentParser
import PropertyList

/// plutil's names (`xml1`, `binary1`) are accepted beside devkit's own.
extension PlistFormat: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument {
        case "xml1": self = .xml
        case "binary1": self = .binary
        default: self.init(rawValue: argument)
        }
    }
}

/// How to read input files: detected from content unless `--input-format` says otherwise.
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("input-format"), help: "Read input as this format instead of detecting it (\(PlistFormat.allCases.map(\.rawValue).joined(separator: "|"))).")
    var format: PlistFormat?
}
