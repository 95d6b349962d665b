/// An image (executable or library) as a log, a core or a recording names it: enough to find
/// the file again and to turn runtime addresses into file addresses.
public struct ImageReference: Sendable, Hashable {
    /// The path the image was loaded from, when known.
    public var path: String?
    /// The build-id (ELF) or UUID (Mach-O) as lowercase hex without dashes, when known.
    public var identifier: String?
    /// Where the image was loaded in the process, when known.
    public var loadAddress: UInt64?

    public init(path: String? = nil, identifier: String? = nil, loadAddress: UInt64? = nil) {
        self.path = path
        self.identifier = identifier
        self.loadAddress = loadAddress
    }
}
