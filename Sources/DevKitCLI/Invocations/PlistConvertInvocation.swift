import ArgumentParser
import PlistTools
import PropertyList

/// One run of `devkit plist convert`: its arguments and what it does with them. Built by
/// ArgumentParser's `Plist.PlistConvert` or read directly (`DirectlyParsed`): scripts convert
/// one small file per call, where ArgumentParser's reflection cost 30 times the conversion.
struct PlistConvertInvocation: DirectlyParsed {
    static let commandPath = ["plist", "convert"]

    var file: String
    var format: PlistFormat
    var output: String?
    var inPlace = false
    var lossy = false
    var inputFormat: PlistFormat?
    var backup = false
    var force = false

    static func read(_ arguments: inout DirectArguments) -> PlistConvertInvocation? {
        var format: PlistFormat?
        var output: String?
        var inPlace = false, lossy = false, backup = false, force = false
        var inputFormat: PlistFormat?
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--to": arguments.read(into: &format)
            case "-o", "--output": arguments.read(into: &output)
            case "--in-place": arguments.set(&inPlace)
            case "--lossy": arguments.set(&lossy)
            case "--input-format": arguments.read(into: &inputFormat)
            case "--backup": arguments.set(&backup)
            case "--force": arguments.set(&force)
            default: false
            }
            guard read else { return nil }
        }
        guard let format, arguments.positionals.count == 1 else { return nil }
        return PlistConvertInvocation(file: arguments.positionals[0], format: format, output: output, inPlace: inPlace,
                                      lossy: lossy, inputFormat: inputFormat, backup: backup, force: force)
    }

    func validate() throws {
        if inPlace && output != nil { throw ValidationError("--in-place and -o cannot be used together.") }
        if inPlace && file == "-" { throw ValidationError("--in-place needs a file, not standard input.") }
        if backup && !inPlace { throw ValidationError("--backup goes with --in-place.") }
        if force && !inPlace { throw ValidationError("--force goes with --in-place.") }
    }

    func run() throws {
        do {
            try PlistFile.convert(file, from: inputFormat, to: format, output: output, inPlace: inPlace,
                                  backup: backup, force: force, lossyJSON: lossy, warning: FileHandleOutput.standardError)
        } catch { throw CommandFailure.diagnostic(error) }
    }
}
