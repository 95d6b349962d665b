#if canImport(Glibc)
import Glibc
#endif

/// Reads standard input line by line as it arrives, for commands that sit in a pipe
/// (`devkit symbolicate --binary`): each read(2) chunk's complete lines are handed over, then
/// `chunkDone` runs (so output can be flushed before blocking for more input).
public enum LineInput {
    /// Calls `body` with each line's bytes (without the newline) and its 1-based number.
    public static func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void, chunkDone: () -> Void) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var lineNumber = 0
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            pending.append(contentsOf: chunk[0..<n])
            let consumed = pending.withUnsafeBufferPointer { buffer in
                var start = 0
                while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    lineNumber += 1
                    body(UnsafeBufferPointer(rebasing: buffer[start..<newline]), lineNumber)
                    start = newline + 1
                }
                return start
            }
            pending.removeFirst(consumed)
            chunkDone()
        }
        if !pending.isEmpty {
            lineNumber += 1
            pending.withUnsafeBufferPointer { body($0, lineNumber) }
        }
        chunkDone()
    }
}
