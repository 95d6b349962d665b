import System
import PropertyList

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
}

/// Writing to the standard streams without Foundation's buffering surprises.
enum FileHandleOutput {
    static func standardError(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    static func standardOutput(_ text: String) throws(CommandFailure) {
        do { try FileIO.writeStandardOutput(Array(text.utf8)) } catch { throw .io(error) }
    }

    static func standardOutput(_ bytes: [UInt8]) throws(CommandFailure) {
        do { try FileIO.writeStandardOutput(bytes) } catch { throw .io(error) }
    }

    /// True when standard output is a terminal that wants colour (NO_COLOR unset, TERM not dumb).
    static var standardOutputWantsColor: Bool { Terminal.standardOutputWantsColor }
}

/// Loads one property list, naming the file in any error.
enum PlistLoader {
    static func load(_ path: String, format: PlistFormat?) throws(CommandFailure) -> PlistDocument {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path) } catch { throw .io(error) }
        do {
            let document = try PropertyListCoding.read(bytes, format: format)
            for warning in document.warnings {
                FileHandleOutput.standardError("\(path): warning: \(warning)\n")
            }
            return document
        } catch {
            throw .plist(error.inFile(path == "-" ? "<stdin>" : path))
        }
    }

    /// Leaves a document for process exit to reclaim. Freeing a 300k-value tree one object at
    /// a time is a measurable share of a conversion and buys nothing just before the process
    /// ends (clang's -disable-free does the same). Call only at the end of a command.
    static func abandonAtExit(_ document: PlistDocument) {
        final class Box { let document: PlistDocument; init(_ d: PlistDocument) { document = d } }
        _ = Unmanaged.passRetained(Box(document))
    }

    static func serialize(_ value: PlistValue, as format: PlistFormat, source: String) throws(CommandFailure) -> [UInt8] {
        do { return try PropertyListCoding.write(value, as: format) } catch {
            throw .input("\(source): error: cannot write as \(format): \(error.message)")
        }
    }
}
