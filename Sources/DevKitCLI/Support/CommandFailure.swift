import PlistTools
import PropertyList
import System

/// A failed command: what to print on stderr and the exit status.
struct CommandFailure: Error {
    var message: String
    var exitCode: Int32

    /// Exit 1: the command ran and found something (lint errors, a difference).
    static func findings(_ message: String = "") -> CommandFailure { CommandFailure(message: message, exitCode: 1) }
    /// Exit 2: bad input or usage.
    static func input(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 2) }

    /// `file:line:col: error: message` (compiler style) for a plist error.
    static func plist(_ error: PlistError) -> CommandFailure {
        var place = error.file ?? "<input>"
        switch error.position {
        case .text(let l, let c)?: place += ":\(l):\(c)"
        case .byteOffset(let o)?: place += ": offset 0x\(String(o, radix: 16))"
        case nil: break
        }
        return .input("\(place): error: \(error.message)")
    }

    static func io(_ error: FileIOError) -> CommandFailure {
        .input("\(error.path): error: \(error.reason)")
    }

    /// A property-list file that could not be read, parsed or written.
    static func file(_ error: PlistFileError) -> CommandFailure {
        switch error {
        case .io(let error): .io(error)
        case .plist(let error): .plist(error)
        }
    }
}
