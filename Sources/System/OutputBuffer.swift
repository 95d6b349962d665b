/// Output collected and written in large pieces (one write(2) per `flush`).
public struct OutputBuffer {
    /// Appended to directly; call `flushIfFull()` after.
    public var bytes: [UInt8] = []

    public init() {}

    /// Appends `text`, writing everything out once 64 KiB are collected.
    public mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        flushIfFull()
    }

    /// Writes the collected bytes out once 64 KiB are collected.
    public mutating func flushIfFull() {
        if bytes.count >= 1 << 16 { flush() }
    }

    /// Writes the collected bytes to standard output now (before blocking for input, or
    /// before a message on standard error that should follow them).
    public mutating func flush() {
        guard !bytes.isEmpty else { return }
        // A closed pipe or full disk is not worth stopping an answering loop for; the
        // command's exit status reflects its input, not its reader.
        try? FileIO.writeStandardOutput(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
