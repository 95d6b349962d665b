import PlistTools
import PropertyList

/// One run of `devkit plist print`: scripts print one file per call, so it is read without
/// ArgumentParser (`DirectlyParsed`) on plain lines.
struct PlistPrintInvocation: DirectlyParsed {
    static let commandPath = ["plist", "print"]

    var files: [String]
    var keypaths = false
    var color: ColorChoice = .auto
    var inputFormat: PlistFormat?

    static func read(_ arguments: inout DirectArguments) -> PlistPrintInvocation? {
        var invocation = PlistPrintInvocation(files: [])
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--keypaths": arguments.set(&invocation.keypaths)
            case "--color": arguments.read(into: &invocation.color)
            case "--input-format": arguments.read(into: &invocation.inputFormat)
            default: false
            }
            guard read else { return nil }
        }
        // ArgumentParser requires at least one file and words its absence.
        guard !arguments.positionals.isEmpty else { return nil }
        invocation.files = arguments.positionals
        return invocation
    }

    func validate() throws {}

    func run() throws {
        let printer = PlistPrinter(style: keypaths ? .keyPaths : .tree, showsTypes: color.enabled)
        for file in files {
            let document = try PlistLoader.load(file, format: inputFormat)
            if files.count > 1 { try FileHandleOutput.standardOutput("==> \(file) <==\n") }
            try FileHandleOutput.standardOutput(printer.render(document.value))
        }
    }
}
