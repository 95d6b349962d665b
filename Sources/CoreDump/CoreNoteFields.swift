import BinaryReading

/// Reads a note's descriptor through the project's one bounded reader (`ByteCursor`); nil
/// when a field lies past the descriptor's end.
func readDescriptor<T>(_ bytes: [UInt8], _ section: String, _ body: (inout ByteCursor) throws(DecodeError) -> T) -> T? {
    bytes.withUnsafeBytes { raw in
        var cursor = ByteCursor(raw, section: section)
        do { return try body(&cursor) } catch { return nil }
    }
}

/// A fixed-size, NUL-padded C string field (`pr_fname`, `pr_psargs`), decoded as UTF-8 with repair.
func fixedString(_ field: UnsafeRawBufferPointer) -> String {
    String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
}
