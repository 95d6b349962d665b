/// One entry of a zip archive's central directory, as the archive declares it: its sizes are
/// the archive's claims, not facts (a zip bomb lies in them).
public struct ZipEntry: Sendable {
    /// Position in the central directory.
    public var index: Int
    /// The entry's path inside the archive, as stored (`Payload/App.app/Info.plist`).
    public var name: String
    /// Compressed bytes stored in the archive.
    public var storedSize: UInt64
    /// Uncompressed size the archive claims.
    public var declaredSize: UInt64
}
