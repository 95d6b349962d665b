import ArgumentParser
import PlistTools
import PropertyList

/// One run of `devkit plist get`: its arguments and what it does with them. Built by
/// ArgumentParser's `Plist.PlistGet` or read directly (`DirectlyParsed`).
struct PlistGetInvocation: DirectlyParsed {
    static let commandPath = ["plist", "get"]

    var file: String
    var keyPath: String
    var raw = false
    var format: PlistFormat?
    var inputFormat: PlistFormat?

    static func read(_ arguments: inout DirectArguments) -> PlistGetInvocation? {
        var raw = false
        var format: PlistFormat?
        var inputFormat: PlistFormat?
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--raw": arguments.set(&raw)
            case "--format": arguments.read(into: &format)
            case "--input-format": arguments.read(into: &inputFormat)
            default: false
            }
            guard read else { return nil }
        }
        guard arguments.positionals.count == 2 else { return nil }
        return PlistGetInvocation(file: arguments.positionals[0], keyPath: arguments.positionals[1],
                                  raw: raw, format: format, inputFormat: inputFormat)
    }

    func validate() throws {
        if raw && format != nil { throw ValidationError("--raw and --format cannot be used together.") }
    }

    func run() throws {
        let document = try PlistLoader.load(file, format: inputFormat)
        let value: PlistValue
        do {
            value = try document.value.value(at: KeyPath.parse(keyPath))
        } catch {
            throw CommandFailure.input("\(file): error: \(error.message)")
        }
        if let format {
            try FileHandleOutput.standardOutput(try PlistLoader.serialize(value, as: format, source: file))
        } else if raw {
            try FileHandleOutput.standardOutput(PlistPrinter.raw(value))
        } else {
            try FileHandleOutput.standardOutput(PlistPrinter().render(value))
        }
    }
}
