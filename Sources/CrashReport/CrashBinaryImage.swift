public import FrameModel

/// An image as a crash log lists it: the shared image reference (path, identifier, load
/// address) plus what only logs say: the name they print frames with, where the image ends,
/// and its architecture.
public struct CrashBinaryImage: Hashable, Sendable {
    /// The name frames refer to the image by (usually the file's last path component).
    public var name: String
    /// Path, identifier and load address, as the log wrote them.
    public var reference = ImageReference()
    /// The image's last address (inclusive), as Apple's `0x1000 - 0x1fff` lines write it.
    public var endAddress: UInt64?
    public var arch: String?

    public init(name: String) { self.name = name }

    /// The Mach-O UUID or ELF build-id as written, lower-cased, without dashes.
    public var uuid: String? {
        get { reference.identifier }
        set { reference.identifier = newValue }
    }

    public var loadAddress: UInt64? {
        get { reference.loadAddress }
        set { reference.loadAddress = newValue }
    }

    public var path: String? {
        get { reference.path }
        set { reference.path = newValue }
    }
}
