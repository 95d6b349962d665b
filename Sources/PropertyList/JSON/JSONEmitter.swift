import JSONWriter

/// Walks a property list into `JSONOutput`, the layout shared with `JSONWriter`; streaming
/// readers feed it the same calls as `PlistEventSink`.
struct JSONEmitter {
    let nonJSONValues: JSONPlistWriter.NonJSONValues
    var out: JSONOutput
    /// Takes the output in pieces as it is made (a file being written); nil keeps it all.
    var drain: OutputDrain?

    init(nonJSONValues: JSONPlistWriter.NonJSONValues, compact: Bool = false) {
        self.nonJSONValues = nonJSONValues
        self.out = JSONOutput(compact: compact)
    }
}

extension JSONEmitter: PlistEventSink {
    typealias Failure = UnwritableValue

    func failure(_ error: UnwritableValue, inKey key: String?, index: Int) -> UnwritableValue {
        error.adding(key.map { .key($0) } ?? .index(index))
    }

    mutating func beginArray(isEmpty: Bool, depth: Int) {
        out.bytes.append(contentsOf: (isEmpty ? "[]" : "[").utf8)
    }

    mutating func arrayItem(_ index: Int, depth: Int) {
        drain?.takeIfFull(&out.bytes)
        out.beginItem(index, depth: depth)
    }

    mutating func endArray(isEmpty: Bool, depth: Int) {
        if !isEmpty { out.endContainer(UInt8(ascii: "]"), depth: depth) }
    }

    mutating func beginDictionary(isEmpty: Bool, depth: Int) {
        out.bytes.append(contentsOf: (isEmpty ? "{}" : "{").utf8)
    }

    mutating func dictionaryKey(_ utf8: UnsafeBufferPointer<UInt8>, index: Int, depth: Int) {
        drain?.takeIfFull(&out.bytes)
        out.beginItem(index, depth: depth)
        out.key(utf8: utf8)
    }

    mutating func endDictionary(isEmpty: Bool, depth: Int) {
        if !isEmpty { out.endContainer(UInt8(ascii: "}"), depth: depth) }
    }

    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>, depth: Int) {
        out.string(utf8: utf8)
    }

    var stringEscapes: ASCIIEscapes { Self.escapes }

    /// `JSONOutput.string(utf8:)`'s spelling of each ASCII byte, without the quotes.
    private static let escapes = ASCIIEscapes { byte in
        var output = JSONOutput()
        withUnsafePointer(to: byte) { output.string(utf8: UnsafeBufferPointer(start: $0, count: 1)) }
        return Array(output.bytes.dropFirst().dropLast())
    }

    mutating func escapedString(_ escaped: UnsafeBufferPointer<UInt8>, depth: Int) {
        out.bytes.append(UInt8(ascii: "\""))
        out.bytes.append(contentsOf: escaped)
        out.bytes.append(UInt8(ascii: "\""))
    }

    mutating func data(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws(UnwritableValue) {
        guard nonJSONValues == .asStrings else {
            throw UnwritableValue(reason: "JSON cannot hold data (\(bytes.count) bytes)")
        }
        out.bytes.append(UInt8(ascii: "\""))
        Base64.encode(bytes, into: &out.bytes)
        out.bytes.append(UInt8(ascii: "\""))
    }

    /// Data is written as base64 on one line: the text, respelled as `data` would write it.
    mutating func base64Data(_ text: UnsafeRawBufferPointer, depth: Int) throws(UnwritableValue) -> Bool {
        guard nonJSONValues == .asStrings else {
            guard let bytes = try? Base64.decode(text) else { return false }
            throw UnwritableValue(reason: "JSON cannot hold data (\(bytes.count) bytes)")
        }
        let mark = out.bytes.count
        out.bytes.append(UInt8(ascii: "\""))
        guard Base64.appendCanonical(text, to: &out.bytes) else {
            out.bytes.removeLast(out.bytes.count - mark)
            return false
        }
        out.bytes.append(UInt8(ascii: "\""))
        return true
    }

    mutating func scalar(_ value: PlistValue, depth: Int) throws(UnwritableValue) {
        switch value {
        case .integer(let i):
            i.appendDecimal(to: &out.bytes)
        case .real(let r):
            // JSON numbers have no nan or infinity (RFC 8259 §6).
            guard r.value.isFinite else {
                throw UnwritableValue(reason: "real \(r.description) has no JSON form (JSON numbers must be finite)")
            }
            // Swift prints the shortest exact decimal: "1.0", "0.1", "1e-05", "5e-324",
            // "1e+300", "-0.0", all valid JSON numbers that read back as reals.
            out.raw(r.value.description)
        case .bool(let b):
            out.raw(b ? "true" : "false")
        case .date(let d):
            guard nonJSONValues == .asStrings else {
                throw UnwritableValue(reason: "JSON cannot hold a date (\(d.iso8601))")
            }
            guard d.components != nil else {
                throw UnwritableValue(reason: "date \(d.secondsSinceReferenceDate) s from 2001 has no ISO-8601 form (years 1...9999 only)")
            }
            // Digits, dashes and colons: nothing to escape.
            out.bytes.append(UInt8(ascii: "\""))
            d.appendISO8601(to: &out.bytes)
            out.bytes.append(UInt8(ascii: "\""))
        case .uid(let u):
            throw UnwritableValue(reason: "JSON cannot hold a UID (CF$UID \(u))")
        case .string, .data, .array, .dictionary:
            // Not scalars: `write` and the transcoders hand these to their own calls.
            try write(value, depth: depth)
        }
    }
}
