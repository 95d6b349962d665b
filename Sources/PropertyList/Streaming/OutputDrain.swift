import System

/// Where a writer hands its output in pieces while it writes (a file being replaced), so a
/// converted document is never held in memory whole: page faults on a growing output buffer
/// were a large part of converting a big file. The writer keeps at most about `pieceSize`
/// bytes before handing them over.
///
/// The first failure of `take` (a full disk) is kept and later pieces are dropped; the
/// caller checks `failure` when the writer is done.
package final class OutputDrain {
    package static let pieceSize = 1 << 20
    private let take: (UnsafeRawBufferPointer) throws(FileIOError) -> Void
    package private(set) var failure: FileIOError?

    package init(_ take: @escaping (UnsafeRawBufferPointer) throws(FileIOError) -> Void) {
        self.take = take
    }

    /// Hands `bytes` over and empties it once it holds a piece.
    @inline(__always)
    func takeIfFull(_ bytes: inout [UInt8]) {
        if bytes.count >= Self.pieceSize { takeAll(&bytes) }
    }

    @inline(__always)
    func takeIfFull(_ bytes: inout ByteBuffer) {
        if bytes.count >= Self.pieceSize { takeAll(&bytes) }
    }

    func takeAll(_ bytes: inout [UInt8]) {
        bytes.withUnsafeBytes { hand($0) }
        bytes.removeAll(keepingCapacity: true)
    }

    func takeAll(_ bytes: inout ByteBuffer) {
        bytes.withUnsafeBufferPointer { hand(UnsafeRawBufferPointer($0)) }
        bytes.removeAll()
    }

    private func hand(_ piece: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        do throws(FileIOError) { try take(piece) } catch { failure = error }
    }
}
