/// A writer fed one value at a time in document order, so a reader can stream a file into
/// another format without building its `PlistValue` tree (`BinaryPlistTranscoder`,
/// `XMLPlistTranscoder`). A `PlistValue` goes through the same calls (`write(_:depth:)`), so
/// each format's layout lives once.
///
/// `depth` is the value's nesting level (the top object is 0); a container's items are at
/// `depth + 1`. A container says only whether it is empty (`<dict/>`, `{}`): a streaming
/// reader of XML knows that at its start tag, not how many items follow. Every item of an
/// array is announced by `arrayItem`, every member of a dictionary by `dictionaryKey`, before
/// its value. Text arrives as valid UTF-8.
package protocol PlistEventSink: ~Copyable {
    associatedtype Failure: Error

    mutating func beginArray(isEmpty: Bool, depth: Int)
    mutating func arrayItem(_ index: Int, depth: Int)
    mutating func endArray(isEmpty: Bool, depth: Int)
    mutating func beginDictionary(isEmpty: Bool, depth: Int)
    mutating func dictionaryKey(_ utf8: UnsafeBufferPointer<UInt8>, index: Int, depth: Int) throws(Failure)
    mutating func endDictionary(isEmpty: Bool, depth: Int)
    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>, depth: Int) throws(Failure)
    /// How the sink escapes the ASCII characters of a string value, so a reader that converts
    /// the text anyway (binary plists' UTF-16) escapes it in the same pass and hands it over
    /// through `escapedString`.
    var stringEscapes: ASCIIEscapes { get }
    /// A string value already escaped as `stringEscapes` spells it (UTF-8 otherwise).
    mutating func escapedString(_ escaped: UnsafeBufferPointer<UInt8>, depth: Int)
    mutating func data(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws(Failure)
    /// A data value as base64 text (an XML `<data>` element's, whitespace and all). The
    /// default decodes it and calls `data`; a sink that writes data as base64 anyway respells
    /// the text instead. False when the text is not base64 the reader accepts.
    mutating func base64Data(_ text: UnsafeRawBufferPointer, depth: Int) throws(Failure) -> Bool
    /// Integers, reals, booleans, dates and UIDs: values with no storage to stream.
    mutating func scalar(_ value: PlistValue, depth: Int) throws(Failure)
    /// `error`, raised inside the member `key` of a dictionary or the item `index` of an array,
    /// as it leaves that container (a sink that names where a value it refused sits adds the
    /// step; the default passes the error on unchanged).
    func failure(_ error: Failure, inKey key: String?, index: Int) -> Failure
}

extension PlistEventSink where Self: ~Copyable {
    package mutating func base64Data(_ text: UnsafeRawBufferPointer, depth: Int) throws(Failure) -> Bool {
        guard let bytes = try? Base64.decode(text) else { return false }
        try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try data(buffer, depth: depth) }
        return true
    }

    package func failure(_ error: Failure, inKey key: String?, index: Int) -> Failure { error }

    /// Writes a value tree through the calls a streaming reader makes.
    mutating func write(_ value: PlistValue, depth: Int) throws(Failure) {
        // withUTF8 and withUnsafeBufferPointer rethrow untyped errors: the typed one is carried out.
        var failure: Failure?
        switch value {
        case .string(var s):
            s.withUTF8 { utf8 in
                do throws(Failure) { try string(utf8, depth: depth) } catch { failure = error }
            }
        case .data(let bytes):
            bytes.withUnsafeBufferPointer { buffer in
                do throws(Failure) { try data(buffer, depth: depth) } catch { failure = error }
            }
        case .array(let items):
            beginArray(isEmpty: items.isEmpty, depth: depth)
            for (index, item) in items.enumerated() {
                arrayItem(index, depth: depth)
                do { try write(item, depth: depth + 1) } catch { throw self.failure(error, inKey: nil, index: index) }
            }
            endArray(isEmpty: items.isEmpty, depth: depth)
        case .dictionary(let dict):
            beginDictionary(isEmpty: dict.isEmpty, depth: depth)
            for (index, (key, item)) in dict.enumerated() {
                var key = key
                key.withUTF8 { utf8 in
                    do throws(Failure) { try dictionaryKey(utf8, index: index, depth: depth) } catch { failure = error }
                }
                if let failure { throw failure }
                do { try write(item, depth: depth + 1) } catch { throw self.failure(error, inKey: key, index: index) }
            }
            endDictionary(isEmpty: dict.isEmpty, depth: depth)
        case .integer, .real, .bool, .date, .uid:
            try scalar(value, depth: depth)
        }
        if let failure { throw failure }
    }
}
