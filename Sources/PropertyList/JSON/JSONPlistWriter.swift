import JSONWriter

/// Writes a property list as pretty-printed JSON in the layout of Python's
/// `json.dumps(value, indent=2, ensure_ascii=False)`: two-space indentation, `"key": value`,
/// one item per line, `{}` and `[]` for empty containers, and a final newline. Keys keep their
/// dictionary order, so the output is deterministic.
///
/// Hand-written rather than Foundation's `JSONSerialization`, which loses dictionary key order
/// and turns integers above `Int64.max` into `Double`; plists need the full
/// `Int64.min ... UInt64.max` range exactly, and we write `PlistInteger.description` as is.
///
/// JSON has no dates, data or UIDs. By default (`NonJSONValues.asStrings`) dates become
/// ISO-8601 strings (`2024-01-02T03:04:05Z`, fractional seconds dropped) and data becomes a
/// base64 string. This is lossy: reading the JSON back gives strings, not dates or data.
/// UIDs, nan and infinities have no sensible JSON form and always throw.
package enum JSONPlistWriter {
    /// What to do with dates and data, which JSON cannot hold natively.
    enum NonJSONValues: Sendable {
        /// Dates as ISO-8601 strings, data as base64 strings (lossy; the default).
        case asStrings
        /// Throw, naming the value.
        case reject
    }

    static func write(_ value: PlistValue) throws(PlistError) -> [UInt8] {
        try write(value, nonJSONValues: .asStrings)
    }

    static func write(_ value: PlistValue, nonJSONValues: NonJSONValues) throws(PlistError) -> [UInt8] {
        var emitter = JSONEmitter(nonJSONValues: nonJSONValues)
        emitter.out.bytes.reserveCapacity(4096)
        do {
            try emitter.write(value, depth: 0)
        } catch {
            throw PlistError(position: nil, message: "cannot write JSON: \(error.description)")
        }
        emitter.out.bytes.append(0x0A)
        return emitter.out.bytes
    }
}

/// A value the emitter could not write, with the path to it (filled in, innermost first,
/// only as the error travels out).
private struct UnwritableValue: Error {
    enum Step {
        case key(String)
        case index(Int)
    }

    var reversedPath: [Step] = []
    var reason: String

    /// `root["items"][2]: reason`.
    var description: String {
        var path = "root"
        for step in reversedPath.reversed() {
            switch step {
            case .key(let key): path += "[\"\(key.prefix(60))\"]"
            case .index(let index): path += "[\(index)]"
            }
        }
        return "\(path): \(reason)"
    }
}

/// Walks a property list into `JSONOutput`, the layout shared with `JSONWriter`.
private struct JSONEmitter {
    let nonJSONValues: JSONPlistWriter.NonJSONValues
    var out: JSONOutput

    init(nonJSONValues: JSONPlistWriter.NonJSONValues) {
        self.nonJSONValues = nonJSONValues
        self.out = JSONOutput()
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

private extension UnwritableValue {
    func adding(_ step: Step) -> UnwritableValue {
        var copy = self
        copy.reversedPath.append(step)
        return copy
    }
}
