/// Placeholder replaced by the JSON implementation.
enum JSONPlistReader {
    static func read(_ bytes: UnsafeRawBufferPointer) throws(PlistError) -> PlistValue {
        throw PlistError(position: nil, message: "JSON reading is not implemented yet")
    }
}
enum JSONPlistWriter {
    static func write(_ value: PlistValue) throws(PlistError) -> [UInt8] {
        throw PlistError(position: nil, message: "JSON writing is not implemented yet")
    }
}
