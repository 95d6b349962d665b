import FrameModel

/// A loaded ELF object as the recording saw it: the image (path, build-id), and where and
/// during which events it was mapped, to place return addresses recorded at any time.
public struct ModuleMapping: Sendable, Equatable {
    /// The recorder's id for the module (stable within one recording).
    public var id: UInt32
    public var path: String
    /// The GNU build-id note, as lowercase hex; empty when the object has none.
    public var buildID: String
    /// Load bias: runtime address minus file address (`dlpi_addr`).
    public var loadBias: UInt64
    /// Runtime address ranges of the PT_LOAD segments.
    public var segments: [Range<UInt64>]
    /// Sequence numbers during which the module was mapped.
    public var loadedAt: UInt64
    public var unloadedAt: UInt64 = .max

    /// The image, to find its file and symbols again: the path, the build-id, and the load
    /// address (the first segment's start).
    public var image: ImageReference {
        ImageReference(path: path, identifier: buildID.isEmpty ? nil : buildID, loadAddress: segments.first?.lowerBound)
    }

    /// The file name without its directory.
    public var name: String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    public func contains(_ address: UInt64, at seq: UInt64) -> Bool {
        guard seq >= loadedAt, seq < unloadedAt else { return false }
        return segments.contains { $0.contains(address) }
    }
}
