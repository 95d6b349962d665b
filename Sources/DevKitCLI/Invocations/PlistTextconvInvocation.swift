import PlistTools
import PropertyList

/// One run of `devkit plist textconv`: git runs it once per plist in every diff and log, so it
/// is read without ArgumentParser (`DirectlyParsed`) on plain lines.
struct PlistTextconvInvocation: DirectlyParsed {
    static let commandPath = ["plist", "textconv"]

    var file: String
    var inputFormat: PlistFormat?

    static func read(_ arguments: inout DirectArguments) -> PlistTextconvInvocation? {
        var inputFormat: PlistFormat?
        while let option = arguments.nextOption() {
            guard option == "--input-format", arguments.read(into: &inputFormat) else { return nil }
        }
        guard arguments.positionals.count == 1 else { return nil }
        return PlistTextconvInvocation(file: arguments.positionals[0], inputFormat: inputFormat)
    }

    func validate() throws {}

    func run() throws {
        let document = try PlistLoader.load(file, format: inputFormat)
        try FileHandleOutput.standardOutput(PlistPrinter(style: .tree, showsTypes: false).render(document.value))
    }
}
