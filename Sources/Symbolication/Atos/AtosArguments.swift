import Diagnostics

/// Apple's `atos` command line (`atos -o BINARY [-arch ARCH] [-l LOADADDR | -s SLIDE | -offset]
/// [-i] [-fullPath] [-f FILE] [ADDRESS...]`), parsed as atos's man page describes it, so a
/// script written for macOS runs unchanged. Unknown flags are usage errors.
public struct AtosArguments: Equatable, Sendable {
    /// How the addresses relate to the image's own (link-time) addresses.
    public enum AddressBase: Equatable, Sendable {
        /// File addresses, as in the binary (no -l, -s or -offset).
        case file
        /// Runtime addresses of an image loaded at this address (`-l`).
        case loadAddress(UInt64)
        /// Runtime addresses of an image slid by this much (`-s`).
        case slide(UInt64)
        /// Offsets from the start of the image (`-offset`).
        case offset
    }

    /// `-o`: the binary or `.dSYM` (an ELF file too).
    public var binary: String
    /// `-arch`: the slice of a universal binary.
    public var architecture: String?
    public var base: AddressBase = .file
    /// `-i`: one line per inlined frame, innermost first.
    public var inlinedFrames = false
    /// `-fullPath`: source files with their whole path, not the last component.
    public var fullPath = false
    /// `-f`: a file of addresses (whitespace separated).
    public var addressFile: String?
    /// `--names short|full` (devkit's, not Apple's): the form of Swift names. Short by
    /// default, as Apple's atos prints them (the simplified form Xcode's crash logs show).
    public var names: NameForm = .short
    /// Addresses given as arguments; none (and no -f) means standard input.
    public var addresses: [String] = []

    /// The usage line atos prints with a usage error.
    public static let usage = "usage: atos [-o BINARY|DSYM] [-arch ARCH] [-l LOADADDR | -s SLIDE | -offset] [-i] [-fullPath] [-f FILE] [--names short|full] [ADDRESS ...]"

    public init(binary: String) { self.binary = binary }

    /// Parses `arguments` (without the program name). A usage error is a diagnostic whose
    /// message names the flag.
    public static func parse(_ arguments: [String]) throws(Diagnostic) -> AtosArguments {
        var binary: String?
        var parsed = AtosArguments(binary: "")
        var index = 0
        func value(of flag: String) throws(Diagnostic) -> String {
            index += 1
            guard index < arguments.count else { throw Diagnostic(message: "\(flag) needs a value", kind: .usage) }
            return arguments[index]
        }
        func address(_ text: String, for flag: String) throws(Diagnostic) -> UInt64 {
            guard let value = HexAddress.parse(text) else { throw Diagnostic(message: "\(flag): \"\(text)\" is not an address", kind: .usage) }
            return value
        }
        func names(_ text: String) throws(Diagnostic) -> NameForm {
            guard let form = NameForm(rawValue: text) else { throw Diagnostic(message: "--names: \"\(text)\" is not short or full", kind: .usage) }
            return form
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--names=") {
                parsed.names = try names(String(argument.dropFirst("--names=".count)))
                index += 1
                continue
            }
            switch argument {
            case "--names": parsed.names = try names(try value(of: argument))
            case "-o": binary = try value(of: argument)
            case "-arch": parsed.architecture = try value(of: argument)
            case "-l": parsed.base = .loadAddress(try address(try value(of: argument), for: argument))
            case "-s": parsed.base = .slide(try address(try value(of: argument), for: argument))
            case "-offset": parsed.base = .offset
            case "-i": parsed.inlinedFrames = true
            case "-fullPath": parsed.fullPath = true
            case "-f": parsed.addressFile = try value(of: argument)
            // Accepted for compatibility, no effect here: devkit reads files, never processes.
            case "-d", "-printHeader": break
            case "-p": throw Diagnostic(message: "-p (a running process) is not supported on Linux; use -o with -l", kind: .usage)
            default:
                if argument.hasPrefix("-"), HexAddress.parse(argument) == nil {
                    throw Diagnostic(message: "unknown option \(argument)", kind: .usage)
                }
                parsed.addresses.append(argument)
            }
            index += 1
        }
        guard let binary, !binary.isEmpty else { throw Diagnostic(message: "no binary: give -o BINARY or -o APP.dSYM", kind: .usage) }
        parsed.binary = binary
        return parsed
    }
}
