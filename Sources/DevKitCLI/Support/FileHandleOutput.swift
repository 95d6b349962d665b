import System

/// Writing to the standard streams without Foundation's buffering surprises.
enum FileHandleOutput {
    static func standardError(_ text: String) {
        FileIO.writeStandardError(Array(text.utf8))
    }

    static func standardOutput(_ text: String) throws(CommandFailure) {
        do { try FileIO.writeStandardOutput(Array(text.utf8)) } catch { throw .diagnostic(error) }
    }

    static func standardOutput(_ bytes: [UInt8]) throws(CommandFailure) {
        do { try FileIO.writeStandardOutput(bytes) } catch { throw .diagnostic(error) }
    }

    /// True when standard output is a terminal that wants colour (NO_COLOR unset, TERM not dumb).
    static var standardOutputWantsColor: Bool { Terminal.standardOutputWantsColor }
}
