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

    /// One-line JSON for reports (diff output): `[a, b]`, `{"k": v}`. Never fails: dates and
    /// data become strings, non-finite reals strings (`"nan"`), UIDs `{"CF$UID": n}`.
    package static func inlineText(_ value: PlistValue) -> String {
        var emitter = JSONEmitter(nonJSONValues: .asStrings, inline: true)
        do { try emitter.write(value, depth: 0) } catch { return "null" }
        return String(decoding: emitter.out, as: UTF8.self)
    }

    static func write(_ value: PlistValue, nonJSONValues: NonJSONValues) throws(PlistError) -> [UInt8] {
        var emitter = JSONEmitter(nonJSONValues: nonJSONValues)
        emitter.out.reserveCapacity(4096)
        do {
            try emitter.write(value, depth: 0)
        } catch {
            throw PlistError(position: nil, message: "cannot write JSON: \(error.description)")
        }
        emitter.out.append(0x0A)
        return emitter.out
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

private struct JSONEmitter {
    /// Lowercase, as Python's `json` writes `\u001f`.
    static let hexDigits = Array("0123456789abcdef".utf8)

    let nonJSONValues: JSONPlistWriter.NonJSONValues
    /// One line, `", "` between items, and values JSON cannot hold spelled leniently.
    let inline: Bool
    var out: [UInt8] = []

    init(nonJSONValues: JSONPlistWriter.NonJSONValues, inline: Bool = false) {
        self.nonJSONValues = nonJSONValues
        self.inline = inline
    }

    mutating func separator() {
        out.append(UInt8(ascii: ","))
        if inline { out.append(0x20) }
    }

    mutating func newline(indent depth: Int) {
        if inline { return }
        out.append(0x0A)
        for _ in 0..<depth { out.append(0x20); out.append(0x20) }
    }

    mutating func write(_ value: PlistValue, depth: Int) throws(UnwritableValue) {
        switch value {
        case .string(let s):
            writeString(s)
        case .integer(let i):
            out.append(contentsOf: i.description.utf8)
        case .real(let r):
            // JSON numbers have no nan or infinity (RFC 8259 §6).
            guard r.value.isFinite else {
                if inline { writeString(r.description); return }
                throw UnwritableValue(reason: "real \(r.description) has no JSON form (JSON numbers must be finite)")
            }
            // Swift prints the shortest exact decimal: "1.0", "0.1", "1e-05", "5e-324",
            // "1e+300", "-0.0", all valid JSON numbers that read back as reals.
            out.append(contentsOf: r.value.description.utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .date(let d):
            guard nonJSONValues == .asStrings else {
                throw UnwritableValue(reason: "JSON cannot hold a date (\(d.iso8601))")
            }
            guard d.components != nil else {
                throw UnwritableValue(reason: "date \(d.secondsSinceReferenceDate) s from 2001 has no ISO-8601 form (years 1...9999 only)")
            }
            writeString(d.iso8601)
        case .data(let bytes):
            guard nonJSONValues == .asStrings else {
                throw UnwritableValue(reason: "JSON cannot hold data (\(bytes.count) bytes)")
            }
            out.append(UInt8(ascii: "\""))
            Base64.encode(bytes, into: &out)
            out.append(UInt8(ascii: "\""))
        case .uid(let u):
            if inline { out.append(contentsOf: "{\"CF$UID\": \(u)}".utf8); return }
            throw UnwritableValue(reason: "JSON cannot hold a UID (CF$UID \(u))")
        case .array(let items):
            guard !items.isEmpty else {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { separator() }
                newline(indent: depth + 1)
                do {
                    try write(item, depth: depth + 1)
                } catch {
                    throw error.adding(.index(index))
                }
            }
            newline(indent: depth)
            out.append(UInt8(ascii: "]"))
        case .dictionary(let dict):
            guard !dict.isEmpty else {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, item) in dict {
                if !first { separator() }
                first = false
                newline(indent: depth + 1)
                writeString(key)
                out.append(contentsOf: ": ".utf8)
                do {
                    try write(item, depth: depth + 1)
                } catch {
                    throw error.adding(.key(key))
                }
            }
            newline(indent: depth)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `s` in double quotes, escaped per RFC 8259 §7: `\"`, `\\`, the short forms for
    /// backspace, form feed, newline, return and tab, `\u00XX` for other controls. Everything
    /// else (including `/` and non-ASCII) is copied as UTF-8.
    mutating func writeString(_ s: String) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var runStart = 0
            for k in 0..<utf8.count {
                let c = utf8[k]
                guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<k]))
                runStart = k + 1
                switch c {
                case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
                case 0x08: out.append(contentsOf: "\\b".utf8)
                case 0x0C: out.append(contentsOf: "\\f".utf8)
                case 0x0A: out.append(contentsOf: "\\n".utf8)
                case 0x0D: out.append(contentsOf: "\\r".utf8)
                case 0x09: out.append(contentsOf: "\\t".utf8)
                default:
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(Self.hexDigits[Int(c >> 4)])
                    out.append(Self.hexDigits[Int(c & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}

private extension UnwritableValue {
    func adding(_ step: Step) -> UnwritableValue {
        var copy = self
        copy.reversedPath.append(step)
        return copy
    }
}
