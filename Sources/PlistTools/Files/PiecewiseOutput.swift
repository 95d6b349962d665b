import PropertyList
import System

/// A converted document going to a file in pieces: an `AtomicFileWriter` fed by an
/// `OutputDrain`, so the target is replaced only when the whole document was written, and a
/// failed conversion (the writer dropped unfinished) leaves it as it was.
struct PiecewiseOutput {
    private let file: AtomicFileWriter
    let drain: OutputDrain

    init(_ path: String) throws(PlistFileError) {
        do { file = try AtomicFileWriter(replacing: path) } catch { throw .io(error) }
        let file = file
        drain = OutputDrain { bytes throws(FileIOError) in try file.write(bytes) }
    }

    /// Writes `rest`, the last piece, and replaces the target.
    func finish(_ rest: [UInt8]) throws(PlistFileError) {
        if let failure = drain.failure { throw .io(failure) }
        do {
            try file.write(rest)
            try file.commit()
        } catch { throw .io(error) }
    }
}
