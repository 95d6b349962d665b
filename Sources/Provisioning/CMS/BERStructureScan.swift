import BinaryReading

/// Finds where a BER/DER encoding goes wrong, for the error message.
///
/// swift-asn1 parses the file; when it refuses, its error does not say where. This walk over
/// the tag-length-value headers (through `ByteCursor`, so it cannot read out of bounds) names
/// the offset of the first header that is truncated, overflows its parent or cannot be
/// decoded. It runs only after swift-asn1 has failed, so it does not duplicate the parse.
enum BERStructureScan {
    /// swift-asn1's nesting limit; deeper input is refused here too.
    static let maximumDepth = 50

    /// The first structural error in `bytes`, or nil when the headers are consistent. `whole`
    /// names the outer element, for bytes after it.
    static func firstError(in bytes: [UInt8], whole: String = "SignedData") -> DecodeError? {
        bytes.withUnsafeBytes { raw in
            var cursor = ByteCursor(raw, section: "CMS")
            do throws(DecodeError) {
                try element(&cursor, depth: 1, allowEndOfContents: false)
                if cursor.remaining > 0 {
                    throw cursor.error("\(cursor.remaining) bytes of trailing data after the \(whole)")
                }
                return nil
            } catch {
                return error
            }
        }
    }

    /// Reads one element (and its children); returns false when it was an end-of-contents marker.
    @discardableResult
    private static func element(_ cursor: inout ByteCursor, depth: Int, allowEndOfContents: Bool) throws(DecodeError) -> Bool {
        let start = cursor.position
        guard depth <= maximumDepth else { throw cursor.error("nesting deeper than \(maximumDepth) levels") }
        let tag = try cursor.readUInt8()
        let constructed = tag & 0x20 != 0
        if tag & 0x1f == 0x1f {
            // High tag number form: base-128 digits, at most 8 of them.
            var digits = 0
            while try cursor.readUInt8() & 0x80 != 0 {
                digits += 1
                guard digits < 8 else { throw cursor.error("tag number too large", at: start) }
            }
        }
        let first = try cursor.readUInt8()
        if tag == 0 && first == 0 {
            guard allowEndOfContents else { throw cursor.error("unexpected end-of-contents marker", at: start) }
            return false
        }
        if first == 0x80 {
            // Indefinite length (BER only, constructed only): children until end-of-contents.
            guard constructed else { throw cursor.error("indefinite length on a primitive element", at: start) }
            while try element(&cursor, depth: depth + 1, allowEndOfContents: true) {}
            return true
        }
        var length: UInt64 = UInt64(first)
        if first & 0x80 != 0 {
            let width = Int(first & 0x7f)
            guard width <= 8 else { throw cursor.error("length field of \(width) bytes overflows", at: start) }
            length = try cursor.readUInt(width: width, endian: .big)
        }
        guard let count = Int(exactly: length), count <= cursor.remaining else {
            throw cursor.error("element length \(length) runs past the end of its container (\(cursor.remaining) bytes left; truncated?)", at: start)
        }
        if constructed {
            var inner = try cursor.subCursor(count: count)
            while inner.remaining > 0 {
                try element(&inner, depth: depth + 1, allowEndOfContents: false)
            }
        } else {
            try cursor.skip(count)
        }
        return true
    }
}
