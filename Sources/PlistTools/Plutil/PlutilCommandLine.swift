/// Apple's `plutil` command line (`plutil -help`): one command, its operands, then the files.
/// Parsed as plutil parses it, so build scripts written for macOS run unchanged.
public struct PlutilCommandLine: Equatable, Sendable {
    /// An output format of `-convert`, `-extract` and `-create`.
    public enum Format: String, Equatable, Sendable {
        case xml1, binary1, json, raw, swift, objc
    }

    /// A value given on the command line: its type flag and text.
    public enum Value: Equatable, Sendable {
        case bool(String), integer(String), float(String), string(String), date(String), data(String)
        case xml(String), json(String), array, dictionary
    }

    public enum Command: Equatable, Sendable {
        case help
        case lint
        case print
        case convert(Format)
        case extract(keyPath: String, format: Format)
        case insert(keyPath: String, value: Value, append: Bool)
        case replace(keyPath: String, value: Value)
        case remove(keyPath: String)
        case type(keyPath: String)
        case create(Format)
    }

    public var command: Command
    public var files: [String] = []
    /// `-o PATH` (`-` is standard output).
    public var output: String?
    /// `-e EXT`: converted files get this extension instead of being replaced.
    public var outputExtension: String?
    /// `-r`: JSON with indentation.
    public var readable = false
    /// `-s`: no `FILE: OK` lines.
    public var silent = false
    /// `-expect TYPE` for `-extract` and `-type`.
    public var expectedType: String?

    public init(command: Command) { self.command = command }

    /// A usage error, in plutil's words where they are known.
    public struct UsageError: Error, Equatable {
        public var message: String
    }

    public static func parse(_ arguments: [String]) throws(UsageError) -> PlutilCommandLine {
        var index = 0
        func next(_ what: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "Missing argument for \(what).") }
            return arguments[index]
        }
        func format(_ text: String, allowed: [Format]) throws(UsageError) -> Format {
            guard let format = Format(rawValue: text), allowed.contains(format) else {
                throw UsageError(message: "Unknown format specifier: \(text)")
            }
            return format
        }
        func value() throws(UsageError) -> Value {
            let flag = try next("a value type")
            switch flag {
            case "-bool": return .bool(try next(flag))
            case "-integer": return .integer(try next(flag))
            case "-float": return .float(try next(flag))
            case "-string": return .string(try next(flag))
            case "-date": return .date(try next(flag))
            case "-data": return .data(try next(flag))
            case "-xml": return .xml(try next(flag))
            case "-json": return .json(try next(flag))
            case "-array": return .array
            case "-dictionary": return .dictionary
            default: throw UsageError(message: "Unknown value type: \(flag)")
            }
        }
        var parsed: PlutilCommandLine?
        var onlyFiles = false
        var files: [String] = []
        var options = PlutilCommandLine(command: .help)
        while index < arguments.count {
            let argument = arguments[index]
            if onlyFiles || argument == "-" || !argument.hasPrefix("-") {
                files.append(argument)
                index += 1
                continue
            }
            var command: Command?
            switch argument {
            case "--": onlyFiles = true
            case "-help", "-h": command = .help
            case "-lint": command = .lint
            case "-p": command = .print
            case "-convert": command = .convert(try format(try next(argument), allowed: [.xml1, .binary1, .json, .swift, .objc]))
            case "-extract":
                let keyPath = try next(argument)
                command = .extract(keyPath: keyPath, format: try format(try next(argument), allowed: [.xml1, .binary1, .json, .raw]))
            case "-insert":
                let keyPath = try next(argument)
                command = .insert(keyPath: keyPath, value: try value(), append: false)
            case "-replace":
                let keyPath = try next(argument)
                command = .replace(keyPath: keyPath, value: try value())
            case "-append":
                // `-insert KEYPATH -TYPE VALUE -append` appends to the array at KEYPATH.
                guard case .insert(let keyPath, let value, _)? = parsed?.command else {
                    throw UsageError(message: "-append follows -insert KEYPATH -TYPE VALUE")
                }
                parsed?.command = .insert(keyPath: keyPath, value: value, append: true)
            case "-remove": command = .remove(keyPath: try next(argument))
            case "-type": command = .type(keyPath: try next(argument))
            case "-create": command = .create(try format(try next(argument), allowed: [.xml1, .binary1, .json]))
            case "-o": options.output = try next(argument)
            case "-e": options.outputExtension = try next(argument)
            case "-r": options.readable = true
            case "-s": options.silent = true
            case "-expect": options.expectedType = try next(argument)
            default: throw UsageError(message: "unrecognized option: \(argument)")
            }
            if let command {
                guard parsed == nil else { throw UsageError(message: "Only one command may be given (\(argument))") }
                parsed = PlutilCommandLine(command: command)
            }
            index += 1
        }
        // No command option: -lint, as plutil does.
        var result = parsed ?? PlutilCommandLine(command: .lint)
        result.files = files
        result.output = options.output
        result.outputExtension = options.outputExtension
        result.readable = options.readable
        result.silent = options.silent
        result.expectedType = options.expectedType
        if result.command != .help, files.isEmpty { throw UsageError(message: "No files specified.") }
        return result
    }
}
