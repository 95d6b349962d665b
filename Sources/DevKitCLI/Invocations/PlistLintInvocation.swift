import ArgumentParser
import LintKit
import PlistChecks
import PropertyList

/// One run of `devkit plist lint`: its arguments and what it does with them. Built by
/// ArgumentParser's `Plist.PlistLint` or read directly (`DirectlyParsed`).
struct PlistLintInvocation: DirectlyParsed {
    static let commandPath = ["plist", "lint"]

    var files: [String]
    var format: ReportFormat = .text
    var inputFormat: PlistFormat?

    static func read(_ arguments: inout DirectArguments) -> PlistLintInvocation? {
        var format = ReportFormat.text
        var inputFormat: PlistFormat?
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--format": arguments.read(into: &format)
            case "--input-format": arguments.read(into: &inputFormat)
            default: false
            }
            guard read else { return nil }
        }
        guard !arguments.positionals.isEmpty else { return nil }
        return PlistLintInvocation(files: arguments.positionals, format: format, inputFormat: inputFormat)
    }

    func validate() throws {}

    func run() throws {
        let findings = files.flatMap { PlistSyntaxCheck.check(path: $0, format: inputFormat) }
        try FileHandleOutput.standardOutput(format.reporter.render(findings))
        if findings.contains(where: { $0.severity == .error }) {
            throw CommandFailure.findings()
        }
    }
}
