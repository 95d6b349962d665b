/// Text encodings at the edge of the text formats (OpenStep, JSON).
enum TextDecoding {
    /// Decodes UTF-16 with a byte-order mark to UTF-8 bytes; nil if not valid UTF-16.
    static func decodeUTF16WithBOM(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard bytes.count >= 2, bytes.count % 2 == 0 else { return nil }
        let bigEndian = bytes[0] == 0xFE
        let count = bytes.count / 2 - 1
        let units = (0..<count).lazy.map { i -> UInt16 in
            let a = UInt16(bytes[2 + 2 * i]), b = UInt16(bytes[3 + 2 * i])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        guard let string = String(validating: units, as: UTF16.self) else { return nil }
        return Array(string.utf8)
    }
}
