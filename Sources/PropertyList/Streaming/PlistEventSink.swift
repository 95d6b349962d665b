/// A writer fed one value at a time in document order, so a reader can stream a file into
/// another format without building its `PlistValue` tree (binary → XML and JSON:
/// `BinaryPlistTranscoder`). The tree writers walk a `PlistValue` through the same calls, so
/// each format's layout lives once.
///
/// `depth` is the value's nesting level (the top object is 0); a container's items are at
/// `depth + 1`. A container says only whether it is empty (`<dict/>`, `{}`): a streaming
/// reader of XML knows that at its start tag, not how many items follow. Every item of an array is announced by `arrayItem`, every member of a
/// dictionary by `dictionaryKey`, before its value. Text arrives as valid UTF-8.
package protocol PlistEventSink {
    associatedtype Failure: Error

    mutating func beginArray(isEmpty: Bool, depth: Int)
    mutating func arrayItem(_ index: Int, depth: Int)
    mutating func endArray(isEmpty: Bool, depth: Int)
    mutating func beginDictionary(isEmpty: Bool, depth: Int)
    mutating func dictionaryKey(_ utf8: UnsafeBufferPointer<UInt8>, index: Int, depth: Int) throws(Failure)
    mutating func endDictionary(isEmpty: Bool, depth: Int)
    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>, depth: Int) throws(Failure)
    mutating func data(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws(Failure)
    /// Integers, reals, booleans, dates and UIDs: values with no storage to stream.
    mutating func scalar(_ value: PlistValue, depth: Int) throws(Failure)
}
