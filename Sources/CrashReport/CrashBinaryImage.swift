public struct CrashBinaryImage: Hashable, Sendable {
    public var name: String
    /// The Mach-O UUID or ELF build-id as written, lower-cased, without dashes.
    public var uuid: String?
    public var loadAddress: UInt64?
    /// The image's last address (inclusive), as Apple's `0x1000 - 0x1fff` lines write it.
    public var endAddress: UInt64?
    public var arch: String?
    public var path: String?

    public init(name: String) { self.name = name }
}
