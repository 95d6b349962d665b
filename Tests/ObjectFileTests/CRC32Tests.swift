import ObjectFile
import Testing

/// The `.gnu_debuglink` checksum that identifies a separate debug file without a build-id.
@Suite struct CRC32Tests {
    /// The standard check value of CRC-32/ISO-HDLC.
    @Test func debuglinkChecksum() {
        #expect(Array("123456789".utf8).withUnsafeBytes { CRC32.checksum($0) } == 0xcbf4_3926)
        #expect([UInt8]().withUnsafeBytes { CRC32.checksum($0) } == 0)
    }
}
