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
    var noInlines = false
    var stats = false
    var noCache = false
    var format = CrashLogFormat.summary
    var searchPath: [String] = []
    var executable: String?
    var output: String?
    var inputs: [String] = []

    static func read(_ arguments: inout DirectArguments) -> SymbolicateInvocation? {
        var symbolicate = SymbolicateInvocation()
        while let option = arguments.nextOption() {
            switch option {
            case "--force", "--no-demangle", "--no-inlines", "--stats", "--no-cache":
                guard arguments.isFlag() else { return nil }
                switch option {
                case "--force": symbolicate.force = true
                case "--no-demangle": symbolicate.noDemangle = true
                case "--no-inlines": symbolicate.noInlines = true
                case "--stats": symbolicate.stats = true
                default: symbolicate.noCache = true
                }
            case "--output-style":
                guard let value = arguments.value(FrameOutputStyle.self) else { return nil }
                symbolicate.outputStyle = value
            case "--format":
                guard let value = arguments.value(CrashLogFormat.self) else { return nil }
                symbolicate.format = value
            case "--binary", "--arch", "--load-address", "--debug-dir", "--uuid", "--build-id", "--search-path", "--executable", "--output":
                guard let value = arguments.value() else { return nil }
                switch option {
                case "--binary": symbolicate.binary = value
                case "--arch": symbolicate.arch = value
                case "--load-address": symbolicate.loadAddress = value
                case "--debug-dir": symbolicate.debugDir.append(value)
                case "--uuid", "--build-id": symbolicate.uuid = value
                case "--search-path": symbolicate.searchPath.append(value)
                case "--executable": symbolicate.executable = value
                default: symbolicate.output = value
                }
            default:
                return nil
            }
        }
        symbolicate.inputs = arguments.positionals
        return symbolicate
    }

    func validate() throws {
        guard binary != nil else {
            guard !inputs.isEmpty else {
                throw ValidationError("give --binary BIN with addresses, or crash logs (.crash, .ips, Swift backtraces, core dumps).")
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
        request.outermostOnly = noInlines
        request.stats = stats
        request.usesCache = !noCache
        request.crashLogFormat = format
        request.searchPaths = searchPath
        request.executable = executable
        request.output = output
        return request
    }
}
