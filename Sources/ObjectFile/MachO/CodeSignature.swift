import BinaryReading

/// The embedded code signature: a SuperBlob of blobs indexed by slot (Apple's
/// `CS_SuperBlob`, `CSMAGIC_EMBEDDED_SIGNATURE`), all big-endian.
public struct CodeSignature: Sendable, Equatable {
    /// One indexed blob: its slot (`CSSLOT_*`), magic and content (after the 8-byte header).
    public struct Blob: Sendable, Equatable {
        public var slot: UInt32
        public var magic: UInt32
        /// Offset of the blob in the file.
        public var offset: Int
        public var content: [UInt8]

        public init(slot: UInt32, magic: UInt32, offset: Int, content: [UInt8]) {
            self.slot = slot
            self.magic = magic
            self.offset = offset
            self.content = content
        }

        /// The whole blob as the SuperBlob stores it, magic and length first: what a
        /// CodeDirectory's special slot hashes (requirements, entitlements).
        public var bytes: [UInt8] {
            var whole: [UInt8] = []
            whole.reserveCapacity(content.count + 8)
            for value in [magic, UInt32(truncatingIfNeeded: content.count + 8)] {
                whole += [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
            }
            return whole + content
        }
    }

    /// `CSMAGIC_EMBEDDED_SIGNATURE`.
    public static let superBlobMagic: UInt32 = 0xfade_0cc0
    /// `CSMAGIC_EMBEDDED_ENTITLEMENTS`: an XML plist.
    public static let entitlementsMagic: UInt32 = 0xfade_7171
    /// `CSMAGIC_EMBEDDED_DER_ENTITLEMENTS`: the same entitlements in Apple's DER form.
    public static let derEntitlementsMagic: UInt32 = 0xfade_7172
    /// No real signature has more blobs; bounds what the count field can make us allocate.
    static let maximumBlobs = 1024

    public var blobs: [Blob]

    /// `CSSLOT_SIGNATURESLOT`: the CMS signature (a `CSMAGIC_BLOBWRAPPER` blob; empty when ad hoc).
    public static let cmsSlot: UInt32 = 0x10000

    /// The first blob indexed at `slot`, if any.
    public func blob(slot: UInt32) -> Blob? { blobs.first { $0.slot == slot } }

    /// The XML entitlements blob's plist bytes, if present.
    public var entitlementsXML: [UInt8]? { blobs.first { $0.magic == Self.entitlementsMagic }?.content }
    /// The DER entitlements blob, if present.
    public var entitlementsDER: [UInt8]? { blobs.first { $0.magic == Self.derEntitlementsMagic }?.content }

    /// The signature of `image` in `bytes` (the whole file), or nil when it is unsigned.
    public static func read(_ bytes: [UInt8], image: MachOSlice) throws(DecodeError) -> CodeSignature? {
        guard let range = image.codeSignature else { return nil }
        return try bytes.withUnsafeBytes { raw in Result { () throws(DecodeError) -> CodeSignature in
            var file = ByteCursor(raw, section: "code signature")
            try file.seek(to: image.offset + range.offset)
            let superBlob = try file.subCursor(count: range.size, section: "code signature")
            return try parse(superBlob)
        } }.get()
    }

    static func parse(_ superBlob: ByteCursor) throws(DecodeError) -> CodeSignature {
        var cursor = superBlob
        let magic = try cursor.read(UInt32.self, endian: .big)
        guard magic == superBlobMagic else {
            throw cursor.error("not an embedded signature SuperBlob (magic 0x\(String(magic, radix: 16)), expected 0xfade0cc0)", at: 0)
        }
        let length = try cursor.read(UInt32.self, endian: .big)
        // The SuperBlob's own length must fit in the LC_CODE_SIGNATURE range.
        guard length >= 12, Int(length) <= cursor.count else {
            throw cursor.error("SuperBlob length \(length) exceeds the \(cursor.count)-byte signature", at: 4)
        }
        let count = try cursor.read(UInt32.self, endian: .big)
        guard count <= maximumBlobs, Int(count) * 8 <= Int(length) - 12 else {
            throw cursor.error("SuperBlob declares \(count) blobs, more than its \(length) bytes hold", at: 8)
        }
        var blobs: [Blob] = []
        for _ in 0..<count {
            let slot = try cursor.read(UInt32.self, endian: .big)
            let offset = try cursor.read(UInt32.self, endian: .big)
            var blob = superBlob
            // Each blob starts inside the SuperBlob and its length keeps it there.
            guard Int(offset) <= Int(length) - 8 else {
                throw cursor.error("blob for slot \(slot) at \(offset) lies outside the \(length)-byte SuperBlob", at: cursor.position - 4)
            }
            try blob.seek(to: Int(offset))
            let blobMagic = try blob.read(UInt32.self, endian: .big)
            let blobLength = try blob.read(UInt32.self, endian: .big)
            guard blobLength >= 8, Int(offset) + Int(blobLength) <= Int(length) else {
                throw blob.error("blob for slot \(slot) has length \(blobLength), past the end of the SuperBlob", at: Int(offset) + 4)
            }
            let contentOffset = blob.offset
            let content = try blob.readBytes(Int(blobLength) - 8)
            blobs.append(Blob(slot: slot, magic: blobMagic, offset: contentOffset, content: Array(content)))
        }
        return CodeSignature(blobs: blobs)
    }
}
