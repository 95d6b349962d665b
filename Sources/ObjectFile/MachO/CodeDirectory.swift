import BinaryReading

/// A CodeDirectory of an embedded code signature (Apple's `CS_CodeDirectory`,
/// `CSMAGIC_CODEDIRECTORY`, big-endian): the hash of every page of the binary up to
/// `codeLimit` (code slots, 0, 1, 2, …) and of the files and blobs bound to it (special
/// slots, −1, −2, …, stored before slot 0).
///
/// Parsed once and checked completely: every count, offset and size the blob supplies is
/// validated against the blob's own length with overflow-checked arithmetic, so `hash(code:)`
/// and `hash(special:)` cannot fail afterwards and nothing is allocated beyond the blob.
public struct CodeDirectory: Sendable, Equatable {
    /// The hash algorithm of the slots (`CS_HASHTYPE_*`).
    public enum HashType: UInt8, Sendable {
        /// `CS_HASHTYPE_SHA1`.
        case sha1 = 1
        /// `CS_HASHTYPE_SHA256`.
        case sha256 = 2
        /// `CS_HASHTYPE_SHA256_TRUNCATED`: SHA-256 cut to 20 bytes.
        case sha256Truncated = 3
        /// `CS_HASHTYPE_SHA384`.
        case sha384 = 4

        /// The bytes one slot holds (`CS_SHA1_LEN`, `CS_SHA256_LEN`, …).
        public var size: Int {
            switch self {
            case .sha1, .sha256Truncated: 20
            case .sha256: 32
            case .sha384: 48
            }
        }

        public var name: String {
            switch self {
            case .sha1: "SHA-1"
            case .sha256: "SHA-256"
            case .sha256Truncated: "SHA-256 (truncated)"
            case .sha384: "SHA-384"
            }
        }
    }

    /// The special slots devkit checks (`cdInfoSlot`, `cdRequirementsSlot`, …), numbered as
    /// the SuperBlob index numbers their blobs; the hash is stored at index −n.
    public enum SpecialSlot: Int, Sendable, CaseIterable {
        /// `cdInfoSlot`: the bundle's Info.plist file.
        case infoPlist = 1
        /// `cdRequirementsSlot`: the requirements blob (SuperBlob slot 2).
        case requirements = 2
        /// `cdResourceDirSlot`: the file `_CodeSignature/CodeResources`.
        case resourceDirectory = 3
        /// `cdEntitlementSlot`: the XML entitlements blob (SuperBlob slot 5).
        case entitlements = 5
        /// `cdEntitlementDERSlot`: the DER entitlements blob (SuperBlob slot 7).
        case derEntitlements = 7

        public var name: String {
            switch self {
            case .infoPlist: "Info.plist"
            case .requirements: "the requirements blob"
            case .resourceDirectory: "_CodeSignature/CodeResources"
            case .entitlements: "the entitlements blob"
            case .derEntitlements: "the DER entitlements blob"
            }
        }
    }

    /// `CSMAGIC_CODEDIRECTORY`.
    public static let magic: UInt32 = 0xfade_0c02
    /// `CSSLOT_CODEDIRECTORY`, the primary CodeDirectory.
    public static let primarySlot: UInt32 = 0
    /// `CSSLOT_ALTERNATE_CODEDIRECTORIES` … `+ CSSLOT_ALTERNATE_CODEDIRECTORY_MAX`.
    public static let alternateSlots: ClosedRange<UInt32> = 0x1000...0x1004
    /// `CS_ADHOC`: signed without a certificate.
    public static let adHocFlag: UInt32 = 0x2
    /// `CS_SUPPORTSTEAMID`, `CS_SUPPORTSCODELIMIT64`: the versions that added those fields.
    static let teamIDVersion: UInt32 = 0x20200
    static let codeLimit64Version: UInt32 = 0x20300
    /// The oldest layout (`CS_SUPPORTSSCATTER` is 0x20100; 0x20001 is the earliest Apple reads).
    static let earliestVersion: UInt32 = 0x20001
    /// The header up to and including `spare2` (the fields every version has).
    static let baseHeaderSize = 44

    /// The SuperBlob slot it came from (0 or an alternate).
    public var slot: UInt32
    public var version: UInt32
    public var flags: UInt32
    public var hashType: HashType
    /// Bytes per page: `1 << pageSize` in the blob, 0 when one hash covers all of `codeLimit`.
    public var pageSize: Int
    /// Bytes of the slice the code slots cover (`codeLimit`, or `codeLimit64` when set).
    public var codeLimit: Int
    public var codeSlotCount: Int
    public var specialSlotCount: Int
    public var identifier: String
    /// `teamOffset`'s string (version 0x20200 and later), nil when absent.
    public var teamIdentifier: String?
    /// File offset of the blob (its magic), for findings.
    public var offset: Int
    /// File offset of the hash of code slot 0 (`hashOffset`), for findings.
    public var hashesOffset: Int
    /// The whole blob, header included: what a cdhash is computed over.
    public var bytes: [UInt8]
    /// Offset of code slot 0's hash in `bytes`.
    let hashStart: Int

    public var isAdHoc: Bool { flags & Self.adHocFlag != 0 }

    /// The stored hash of code slot `index` (0 ..< `codeSlotCount`).
    public func hash(code index: Int) -> ArraySlice<UInt8> {
        let start = hashStart + index * hashType.size
        return bytes[start..<(start + hashType.size)]
    }

    /// The stored hash of special slot `slot`, nil when the directory has fewer special slots
    /// (which, like an all-zero hash, means the item is not bound).
    public func hash(special slot: Int) -> ArraySlice<UInt8>? {
        guard slot >= 1, slot <= specialSlotCount else { return nil }
        let start = hashStart - slot * hashType.size
        return bytes[start..<(start + hashType.size)]
    }

    /// The file offset of code slot `index`'s hash.
    public func hashOffset(code index: Int) -> Int { hashesOffset + index * hashType.size }

    /// The byte range of the slice that code slot `index` covers (the last page may be short).
    public func pageRange(_ index: Int) -> Range<Int> {
        guard pageSize > 0 else { return 0..<codeLimit }
        let start = index * pageSize
        return start..<min(start + pageSize, codeLimit)
    }

    /// The CodeDirectories of `signature`: the primary one (slot 0) and the alternates
    /// (0x1000 …), in slot order.
    public static func all(in signature: CodeSignature) throws(DecodeError) -> [CodeDirectory] {
        var directories: [CodeDirectory] = []
        for blob in signature.blobs where blob.slot == primarySlot || alternateSlots.contains(blob.slot) {
            directories.append(try parse(blob))
        }
        return directories.sorted { $0.slot < $1.slot }
    }

    /// Parses one blob of the SuperBlob as a CodeDirectory.
    public static func parse(_ blob: CodeSignature.Blob) throws(DecodeError) -> CodeDirectory {
        let bytes = blob.bytes
        let start = blob.offset - 8
        return try bytes.withUnsafeBytes { raw in Result { () throws(DecodeError) -> CodeDirectory in
            try parse(ByteCursor(raw, section: "code directory", baseOffset: start), bytes: bytes, slot: blob.slot)
        } }.get()
    }

    static func parse(_ blob: ByteCursor, bytes: [UInt8], slot: UInt32) throws(DecodeError) -> CodeDirectory {
        var cursor = blob
        let magic = try cursor.read(UInt32.self, endian: .big)
        guard magic == Self.magic else {
            throw cursor.error("slot 0x\(String(slot, radix: 16)) holds magic 0x\(String(magic, radix: 16)), not a CodeDirectory (0xfade0c02)", at: 0)
        }
        let length = Int(try cursor.read(UInt32.self, endian: .big))
        let version = try cursor.read(UInt32.self, endian: .big)
        let flags = try cursor.read(UInt32.self, endian: .big)
        let hashOffset = Int(try cursor.read(UInt32.self, endian: .big))
        let identOffset = Int(try cursor.read(UInt32.self, endian: .big))
        let specialSlots = Int(try cursor.read(UInt32.self, endian: .big))
        let codeSlots = Int(try cursor.read(UInt32.self, endian: .big))
        let codeLimit32 = try cursor.read(UInt32.self, endian: .big)
        let hashSize = Int(try cursor.read(UInt8.self, endian: .big))
        let hashTypeRaw = try cursor.read(UInt8.self, endian: .big)
        _ = try cursor.read(UInt8.self, endian: .big) // platform
        let pageShift = try cursor.read(UInt8.self, endian: .big)
        // The blob's length field agrees with the SuperBlob index that located it.
        guard length == blob.count else {
            throw cursor.error("CodeDirectory length \(length) differs from its blob's \(blob.count) bytes", at: 4)
        }
        guard version >= earliestVersion, version >> 16 == 2 else {
            throw cursor.error("unsupported CodeDirectory version 0x\(String(version, radix: 16))", at: 8)
        }
        guard let hashType = HashType(rawValue: hashTypeRaw) else {
            throw cursor.error("unknown hash type \(hashTypeRaw)", at: 37)
        }
        // The slot width is the algorithm's digest size; a larger one would let slots overlap the header.
        guard hashSize == hashType.size else {
            throw cursor.error("hash size \(hashSize) does not match \(hashType.name) (\(hashType.size) bytes)", at: 36)
        }
        // Page sizes Apple writes are 4 KiB and 16 KiB; 2^31 and beyond cannot be a page of a file.
        guard pageShift < 31 else { throw cursor.error("page size 2^\(pageShift) is not plausible", at: 39) }
        var teamOffset = 0
        var codeLimit = Int(codeLimit32)
        if version >= teamIDVersion {
            try cursor.seek(to: 48)
            teamOffset = Int(try cursor.read(UInt32.self, endian: .big))
        }
        if version >= codeLimit64Version {
            try cursor.seek(to: 56)
            let codeLimit64 = try cursor.read(UInt64.self, endian: .big)
            if codeLimit64 != 0 {
                // Beyond Int (or a 32-bit limit set too) is hostile: no binary is that large.
                guard codeLimit32 == 0, let limit = Int(exactly: codeLimit64), limit < 1 << 48 else {
                    throw cursor.error("codeLimit64 \(codeLimit64) is not plausible", at: 56)
                }
                codeLimit = limit
            }
        }
        let headerEnd = cursor.position
        // Hashes: specialSlots before hashOffset, codeSlots after it, all within the blob and
        // after the fixed header. Computed in Int from 32-bit fields: cannot overflow on 64-bit.
        let specialBytes = specialSlots * hashSize
        let codeBytes = codeSlots * hashSize
        guard hashOffset >= specialBytes, hashOffset - specialBytes >= min(headerEnd, baseHeaderSize),
              hashOffset + codeBytes <= length else {
            throw cursor.error("\(specialSlots) special and \(codeSlots) code slots of \(hashSize) bytes at offset \(hashOffset) do not fit in the \(length)-byte CodeDirectory", at: 16)
        }
        // One hash per page: nCodeSlots is ceil(codeLimit / pageSize).
        let pageSize = pageShift == 0 ? 0 : 1 << Int(pageShift)
        let expectedSlots = pageSize == 0 ? (codeLimit > 0 ? 1 : 0) : (codeLimit + pageSize - 1) / pageSize
        guard codeSlots == expectedSlots else {
            throw cursor.error("\(codeSlots) code slots for a code limit of \(codeLimit) bytes in pages of \(pageSize); expected \(expectedSlots)", at: 28)
        }
        var identifierCursor = blob
        guard identOffset >= baseHeaderSize, identOffset < length else {
            throw cursor.error("identifier offset \(identOffset) lies outside the \(length)-byte CodeDirectory", at: 20)
        }
        try identifierCursor.seek(to: identOffset)
        let identifier = try identifierCursor.readCString()
        var team: String?
        if teamOffset != 0 {
            guard teamOffset >= baseHeaderSize, teamOffset < length else {
                throw cursor.error("team identifier offset \(teamOffset) lies outside the \(length)-byte CodeDirectory", at: 48)
            }
            var teamCursor = blob
            try teamCursor.seek(to: teamOffset)
            team = try teamCursor.readCString()
        }
        return CodeDirectory(slot: slot, version: version, flags: flags, hashType: hashType, pageSize: pageSize,
                             codeLimit: codeLimit, codeSlotCount: codeSlots, specialSlotCount: specialSlots,
                             identifier: identifier, teamIdentifier: team, offset: blob.baseOffset,
                             hashesOffset: blob.baseOffset + hashOffset, bytes: bytes, hashStart: hashOffset)
    }
}
