import System

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
