import JSONWriter

/// Walks a property list into `JSONOutput`, the layout shared with `JSONWriter`.
struct JSONEmitter {
    let nonJSONValues: JSONPlistWriter.NonJSONValues
    var out: JSONOutput

    init(nonJSONValues: JSONPlistWriter.NonJSONValues, compact: Bool = false) {
        self.nonJSONValues = nonJSONValues
        self.out = JSONOutput(compact: compact)
    }

    mutating func write(_ value: PlistValue, depth: Int) throws(UnwritableValue) {
        switch value {
        case .string(let s):
            out.string(s)
        case .integer(let i):
            out.raw(i.description)
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
            out.string(d.iso8601)
        case .data(let bytes):
            guard nonJSONValues == .asStrings else {
                throw UnwritableValue(reason: "JSON cannot hold data (\(bytes.count) bytes)")
            }
            out.bytes.append(UInt8(ascii: "\""))
            Base64.encode(bytes, into: &out.bytes)
            out.bytes.append(UInt8(ascii: "\""))
        case .uid(let u):
            throw UnwritableValue(reason: "JSON cannot hold a UID (CF$UID \(u))")
        case .array(let items):
            guard !items.isEmpty else { return out.raw("[]") }
            out.bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                out.beginItem(index, depth: depth)
                do {
                    try write(item, depth: depth + 1)
                } catch {
                    throw error.adding(.index(index))
                }
            }
            out.endContainer(UInt8(ascii: "]"), depth: depth)
        case .dictionary(let dict):
            guard !dict.isEmpty else { return out.raw("{}") }
            out.bytes.append(UInt8(ascii: "{"))
            for (index, (key, item)) in dict.enumerated() {
                out.beginItem(index, depth: depth)
                out.key(key)
                do {
                    try write(item, depth: depth + 1)
                } catch {
                    throw error.adding(.key(key))
                }
            }
            out.endContainer(UInt8(ascii: "}"), depth: depth)
        }
    }
}
