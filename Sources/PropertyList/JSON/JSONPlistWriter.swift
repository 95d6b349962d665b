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

    static func write(_ value: PlistValue, nonJSONValues: NonJSONValues, compact: Bool = false, drain: OutputDrain? = nil) throws(PlistError) -> [UInt8] {
        var emitter = JSONEmitter(nonJSONValues: nonJSONValues, compact: compact)
        emitter.drain = drain
        emitter.out.bytes.reserveCapacity(drain == nil ? 4096 : OutputDrain.pieceSize * 2)
        do {
            try emitter.write(value, depth: 0)
        } catch {
            throw PlistError(position: nil, message: "cannot write JSON: \(error.description)")
        }
        emitter.out.bytes.append(0x0A)
        return emitter.out.bytes
    }
}
