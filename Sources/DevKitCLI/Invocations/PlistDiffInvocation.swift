import ArgumentParser
import PlistTools
import PropertyList

/// One run of `devkit plist diff`: its arguments and what it does with them. Built by
/// ArgumentParser's `Plist.PlistDiff` or read directly (`DirectlyParsed`): hooks and scripts
/// compare files one pair a call.
struct PlistDiffInvocation: DirectlyParsed {
    static let commandPath = ["plist", "diff"]

    var a: String
    var b: String
    var format = ReportFormat.text
    var color = ColorChoice.auto
    var inputFormat: PlistFormat?

    static func read(_ arguments: inout DirectArguments) -> PlistDiffInvocation? {
        var diff = PlistDiffInvocation(a: "", b: "")
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--format": arguments.read(into: &diff.format)
            case "--color": arguments.read(into: &diff.color)
            case "--input-format": arguments.read(into: &diff.inputFormat)
            default: false
            }
            guard read else { return nil }
        }
        guard arguments.positionals.count == 2 else { return nil }
        diff.a = arguments.positionals[0]
        diff.b = arguments.positionals[1]
        return diff
    }

    func validate() throws {
        if a == "-" && b == "-" { throw ValidationError("Only one of A and B can be standard input.") }
    }

    func run() throws {
        let old = try PlistLoader.load(a, format: inputFormat).value
        let new = try PlistLoader.load(b, format: inputFormat).value
        let differences = old.differences(to: new)
        guard !differences.isEmpty else { return }
        switch format {
        case .text: try FileHandleOutput.standardOutput(PlistDifference.textReport(differences, colored: color.enabled))
        case .json: try FileHandleOutput.standardOutput(PlistDifference.jsonReport(differences))
        }
        throw CommandFailure.findings()
    }
}
