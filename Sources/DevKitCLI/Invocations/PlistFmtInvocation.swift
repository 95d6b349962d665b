import ArgumentParser
import PlistTools
import PropertyList
import System

/// One run of `devkit plist fmt`: pre-commit hooks run `fmt --check` on every commit, so it is
/// read without ArgumentParser (`DirectlyParsed`) on plain lines.
struct PlistFmtInvocation: DirectlyParsed {
    static let commandPath = ["plist", "fmt"]

    var files: [String]
    var check = false
    var sortKeys = false
    var indent: XMLIndent = .tabs
    var dropComments = false
    var inputFormat: PlistFormat?
    var backup = false
    var force = false

    static func read(_ arguments: inout DirectArguments) -> PlistFmtInvocation? {
        var invocation = PlistFmtInvocation(files: [])
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--check": arguments.set(&invocation.check)
            case "--sort-keys": arguments.set(&invocation.sortKeys)
            case "--indent": arguments.read(into: &invocation.indent)
            case "--drop-comments": arguments.set(&invocation.dropComments)
            case "--input-format": arguments.read(into: &invocation.inputFormat)
            case "--backup": arguments.set(&invocation.backup)
            case "--force": arguments.set(&invocation.force)
            default: false
            }
            guard read else { return nil }
        }
        invocation.files = arguments.positionals
        return invocation
    }

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one FILE (- for standard input).") }
        if files.filter({ $0 == FileIO.standardStream }).count > 1 { throw ValidationError("- can be given only once.") }
        if !check && files.count > 1 && files.contains(FileIO.standardStream) {
            throw ValidationError("- writes its result to standard output, so it cannot be mixed with other files (except with --check).")
        }
    }

    func run() throws {
        let formatter = PlistFormatter(sortsKeys: sortKeys, xmlIndent: indent, dropsComments: dropComments)
        var anyChanged = false, anyFailed = false
        for file in files {
            do throws(CommandFailure) {
                anyChanged = try format(file, with: formatter) || anyChanged
            } catch {
                FileHandleOutput.standardError(error.message + "\n")
                anyFailed = true
            }
        }
        // An input error outranks a finding: the check did not see every file.
        if anyFailed { throw CommandFailure.input("") }
        if check && anyChanged { throw CommandFailure.findings() }
    }

    /// Formats one file (or checks it, with --check) and lists it; returns whether its bytes change.
    private func format(_ file: String, with formatter: PlistFormatter) throws(CommandFailure) -> Bool {
        let outcome: PlistFormatter.FileOutcome
        do {
            outcome = try formatter.formatFile(file, as: inputFormat, check: check, backup: backup, force: force,
                                               warning: FileHandleOutput.standardError)
        } catch { throw .diagnostic(error) }
        switch outcome {
        case .unchanged: return false
        case .wouldChange: try FileHandleOutput.standardOutput(PlistFile.displayName(file) + "\n")
        case .reformatted where file != FileIO.standardStream: try FileHandleOutput.standardOutput("reformatted \(file)\n")
        case .reformatted: break
        }
        return true
    }
}
