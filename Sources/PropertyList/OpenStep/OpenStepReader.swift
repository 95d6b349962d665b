/// Placeholder replaced by the OpenStep implementation.
enum OpenStepReader {
    static func read(_ bytes: UnsafeRawBufferPointer) throws(PlistError) -> PlistValue {
        throw PlistError(position: nil, message: "OpenStep reading is not implemented yet")
    }
}
enum OpenStepWriter {
    static func write(_ value: PlistValue) throws(PlistError) -> [UInt8] {
        throw PlistError(position: nil, message: "OpenStep writing is not implemented yet")
    }
}
