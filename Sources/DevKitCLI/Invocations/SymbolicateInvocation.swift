import ArgumentParser
import CrashSymbolication
import Symbolication

/// One run of `devkit symbolicate`: its arguments and what it does with them. Built by
/// ArgumentParser's `Symbolicate` or read directly (`DirectlyParsed`).
struct SymbolicateInvocation: DirectlyParsed {
    static let commandPath = ["symbolicate"]

    var binary: String?
    var arch: String?
    var loadAddress: String?
    var debugDir: [String] = []
    var uuid: String?
    var force = false
    var outputStyle = FrameOutputStyle.llvm
    var noDemangle = false
    var names: NameForm?
    var noInlines = false
    var stats = false
    var noCache = false
    var format: SymbolicateFormat?
    var group = false
    var searchPath: [String] = []
    var executable: String?
    var output: String?
    var debuginfod: String?
    var offline = false
    var inputs: [String] = []

    static func read(_ arguments: inout DirectArguments) -> SymbolicateInvocation? {
        var symbolicate = SymbolicateInvocation()
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--force": arguments.set(&symbolicate.force)
            case "--no-demangle": arguments.set(&symbolicate.noDemangle)
            case "--no-inlines": arguments.set(&symbolicate.noInlines)
            case "--stats": arguments.set(&symbolicate.stats)
            case "--no-cache": arguments.set(&symbolicate.noCache)
            case "--output-style": arguments.read(into: &symbolicate.outputStyle)
            case "--names": arguments.read(into: &symbolicate.names)
            case "--format": arguments.read(into: &symbolicate.format)
            case "--binary": arguments.read(into: &symbolicate.binary)
            case "--arch": arguments.read(into: &symbolicate.arch)
            case "--load-address": arguments.read(into: &symbolicate.loadAddress)
            case "--debug-dir": arguments.append(to: &symbolicate.debugDir)
            case "--uuid", "--build-id": arguments.read(into: &symbolicate.uuid)
            case "--search-path": arguments.append(to: &symbolicate.searchPath)
            case "--executable": arguments.read(into: &symbolicate.executable)
            case "--output": arguments.read(into: &symbolicate.output)
            case "--debuginfod": arguments.read(into: &symbolicate.debuginfod)
            case "--offline": arguments.set(&symbolicate.offline)
            case "--group": arguments.set(&symbolicate.group)
            default: false
            }
            guard read else { return nil }
        }
        symbolicate.inputs = arguments.positionals
        return symbolicate
    }

    func validate() throws {
        if group {
            guard binary == nil else { throw ValidationError("--group groups crash logs; it does not take --binary.") }
            // Options of one image or one core would apply to every log of the group: refused.
            for (given, name) in [(uuid, "--uuid"), (loadAddress, "--load-address"), (executable, "--executable")] where given != nil {
                throw ValidationError("--group does not take \(name): each log names its own images.")
            }
            guard !inputs.isEmpty else { throw ValidationError("give --group crash logs or directories of them.") }
            if let format, format.groupFormat == nil {
                throw ValidationError("--format \(format.rawValue) prints one log; with --group, use text, json or html.")
            }
            return
        }
        if let format, format.crashLogFormat == nil {
            throw ValidationError("--format \(format.rawValue) is for --group; a crash log is printed as summary, same or json.")
        }
        guard binary != nil else {
            guard !inputs.isEmpty else {
                throw ValidationError("give --binary BIN with addresses, or crash logs (.crash, .ips, MetricKit, KSCrash, Swift backtraces, core dumps).")
            }
            return
        }
        if let loadAddress, HexAddress.parse(loadAddress) == nil {
            throw ValidationError("--load-address \"\(loadAddress)\" is not a hex address.")
        }
    }

    func run() throws {
        do { try request.run(diagnostics: FileHandleOutput.standardError) } catch {
            throw CommandFailure.input(error.problem?.description ?? "")
        }
    }

    /// The options as the library's request.
    private var request: SymbolicateRequest {
        var request = SymbolicateRequest(inputs: inputs)
        request.binary = binary
        request.architecture = arch
        request.loadAddress = loadAddress.flatMap(HexAddress.parse)
        request.debugDirectories = debugDir
        request.identifier = uuid
        request.allowIdentifierMismatch = force
        request.outputStyle = outputStyle
        request.demangle = !noDemangle
        request.names = names
        request.outermostOnly = noInlines
        request.stats = stats
        request.usesCache = !noCache
        request.crashLogFormat = format?.crashLogFormat ?? .summary
        request.group = group
        request.groupFormat = format?.groupFormat ?? .text
        request.searchPaths = searchPath
        request.executable = executable
        request.output = output
        request.debuginfodServers = debuginfod
        request.offline = offline
        return request
    }
}
