/// A report's binary images sorted by load address, to find the one holding an address
/// (every reader that ties frames to images, the core-dump reader and the symbolicator use
/// this one lookup).
public struct BinaryImageMap: Sendable {
    /// Image ranges sorted by start: `end` is exclusive.
    private var ranges: [(start: UInt64, end: UInt64, index: Int)]
    /// The images' names in the report's order, searched only for frames outside every range:
    /// a dictionary of them cost more to build, once per log, than all such searches.
    private var names: [String]

    public init(_ images: [CrashBinaryImage]) {
        var known: [(start: UInt64, last: UInt64?, index: Int)] = []
        names = images.map(\.name)
        for (index, image) in images.enumerated() {
            if let start = image.loadAddress { known.append((start, image.endAddress, index)) }
        }
        known.sort { $0.start < $1.start }
        // `endAddress` is the image's last address; an image without one ends where the next
        // begins (or 4 GiB on, for the last).
        ranges = known.enumerated().map { position, image in
            let next = position + 1 < known.count ? known[position + 1].start : image.start &+ (1 << 32)
            let end = image.last.map { $0 == .max ? $0 : $0 + 1 } ?? max(next, image.start)
            return (image.start, end, image.index)
        }
    }

    /// The index (into the report's `binaryImages`) of the image holding `address`.
    public func image(containing address: UInt64) -> Int? {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].start <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let candidate = ranges[low - 1]
        return address < candidate.end ? candidate.index : nil
    }

    /// The image a frame's address is in. A return address is looked up one byte back, in
    /// the call: a call that ends a function (a `noreturn` callee) returns just past it,
    /// which may be past its image's end.
    public func image(of frame: CrashFrame) -> Int? {
        guard let address = frame.address else { return nil }
        return image(containing: frame.isReturnAddress && address > 0 ? address - 1 : address)
    }

    /// The first image named `name`.
    public func image(named name: String) -> Int? { names.firstIndex(of: name) }
}
