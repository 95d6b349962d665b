import Diagnostics

/// Where a value sits in JSON text the JSON reader has already accepted. The reader's value
/// model keeps no positions; this walks the text again, only along the paths asked for, and
/// only when there is something to report. Two users: the baseline reader (an error about a
/// value's meaning names its line and column as a syntax error does), and the lint engine,
/// which places every finding in a JSON file (a String Catalog, a JSON plist) at the value its
/// key path names.
///
/// A file with many findings asks for many paths into the same large objects (a catalog's
/// `strings` holds every key), so each object or array walked is remembered as a table of
/// its members' offsets, and line starts are found once: the cost is one pass over the
/// containers the paths go through, not one per finding.
///
/// Text the reader accepted is well formed, so the walk does not validate; on anything it does
/// not expect it gives up (nil) rather than guess. Keys are compared after decoding their
/// escapes (`\"`, `\u00e9`), since String Catalog keys are source strings and often hold quotes.
struct JSONLocator {
    /// A step into an object (by key) or an array (by index); `component` is a key path's
    /// component: a key in an object, and in an array an index when it is one (as
    /// `PlistValue`'s key paths read it).
    enum Step: Equatable {
        case key(String)
        case index(Int)
        case component(String)
    }

    private let bytes: [UInt8]
    private var index = 0
    /// Where the text starts: after a UTF-8 byte-order mark, which the reader skips too (its
    /// positions count from there).
    private let start: Int
    /// Members of each object walked so far, by the offset of its `{`: key → value offset.
    private var objects: [Int: [String: Int]] = [:]
    /// Element offsets of each array walked so far, by the offset of its `[`.
    private var arrays: [Int: [Int]] = [:]
    /// Offsets where lines start, computed at the first position asked for.
    private var lineStarts: [Int] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        index = start
    }

    /// The position of the value at `path`, or of its deepest ancestor that exists (so a
    /// missing key points at the object that lacks it); nil when the text cannot be walked.
    static func position(of path: [Step], in bytes: [UInt8]) -> SourcePosition? {
        var locator = JSONLocator(bytes)
        return locator.position(of: path)
    }

    /// As the static form, reusing what earlier calls on this locator walked.
    mutating func position(of path: [Step]) -> SourcePosition? {
        guard let offset = offset(of: path) else { return nil }
        return position(ofOffset: offset)
    }

    /// A key path's components, each a key or an index by the container it meets.
    mutating func position(of components: [String]) -> SourcePosition? {
        position(of: components.map(Step.component))
    }

    private mutating func offset(of path: [Step]) -> Int? {
        // UTF-16 text is read after conversion to UTF-8, so its positions are the converted
        // text's; these bytes cannot give them. No position rather than a wrong one.
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return nil }
        index = start
        skipWhitespace()
        guard index < bytes.count else { return nil }
        var found = index
        for step in path {
            let container = found
            switch (step, bytes[container]) {
            case (.key(let key), UInt8(ascii: "{")), (.component(let key), UInt8(ascii: "{")):
                guard let members = members(ofObjectAt: container) else { return nil }
                guard let offset = members[key] else { return found }
                found = offset
            case (.index(let wanted), UInt8(ascii: "[")):
                guard let elements = elements(ofArrayAt: container) else { return nil }
                guard elements.indices.contains(wanted) else { return found }
                found = elements[wanted]
            case (.component(let text), UInt8(ascii: "[")):
                guard let elements = elements(ofArrayAt: container) else { return nil }
                guard let wanted = Int(text), elements.indices.contains(wanted) else { return found }
                found = elements[wanted]
            default:
                return found
            }
        }
        return found
    }

    /// The object at `offset` (its `{`) as key → value offset; walked once.
    private mutating func members(ofObjectAt offset: Int) -> [String: Int]? {
        if let known = objects[offset] { return known }
        index = offset + 1
        var table: [String: Int] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            objects[offset] = table
            return table
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            guard let written = skipString() else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            // A key with an escape the decoder refuses cannot be asked for by name; skip it.
            if let name = Self.decodeKey(written) { table[name] = index }
            guard skipValue() else { return nil }
            skipWhitespace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "}") { break }
            guard bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
        objects[offset] = table
        return table
    }

    /// The array at `offset` (its `[`) as element offsets; walked once.
    private mutating func elements(ofArrayAt offset: Int) -> [Int]? {
        if let known = arrays[offset] { return known }
        index = offset + 1
        var list: [Int] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            arrays[offset] = list
            return list
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            list.append(index)
            guard skipValue() else { return nil }
            skipWhitespace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "]") { break }
            guard bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
        arrays[offset] = list
        return list
    }

    /// A key as written between its quotes, with escapes decoded when it has any.
    private static func decodeKey(_ written: ArraySlice<UInt8>) -> String? {
        guard written.contains(UInt8(ascii: "\\")) else { return String(decoding: written, as: UTF8.self) }
        return unescape(written)
    }

    /// The text of a JSON string's contents with its escapes decoded (RFC 8259 §7, surrogate
    /// pairs joined); nil for an escape the reader would have refused.
    static func unescape(_ written: ArraySlice<UInt8>) -> String? {
        var scalars = String.UnicodeScalarView()
        var pending: [UInt8] = []
        // Escapes are ASCII, so the bytes between two of them are whole UTF-8 sequences.
        func flush() {
            scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
            pending.removeAll(keepingCapacity: true)
        }
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= written.endIndex else { return nil }
            return UInt32(String(decoding: written[at..<(at + 4)], as: UTF8.self), radix: 16)
        }
        var i = written.startIndex
        while i < written.endIndex {
            let c = written[i]
            guard c == UInt8(ascii: "\\") else { pending.append(c); i += 1; continue }
            guard i + 1 < written.endIndex else { return nil }
            let e = written[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): pending.append(e)
            case UInt8(ascii: "b"): pending.append(0x08)
            case UInt8(ascii: "f"): pending.append(0x0C)
            case UInt8(ascii: "n"): pending.append(0x0A)
            case UInt8(ascii: "r"): pending.append(0x0D)
            case UInt8(ascii: "t"): pending.append(0x09)
            case UInt8(ascii: "u"):
                guard var code = hex4(i) else { return nil }
                i += 4
                if (0xD800...0xDBFF).contains(code) {
                    guard i + 1 < written.endIndex, written[i] == UInt8(ascii: "\\"), written[i + 1] == UInt8(ascii: "u"),
                          let low = hex4(i + 2), (0xDC00...0xDFFF).contains(low) else { return nil }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                guard let scalar = Unicode.Scalar(code) else { return nil }
                flush()
                scalars.append(scalar)
            default: return nil
            }
        }
        flush()
        return String(scalars)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    /// From `"`: past the closing quote; the bytes between the quotes as written.
    private mutating func skipString() -> ArraySlice<UInt8>? {
        let contentStart = index + 1
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return bytes[contentStart..<(index - 1)]
            default: index += 1
            }
        }
        return nil
    }

    /// Past one value of any kind; containers by counting brackets outside strings, without
    /// recursion.
    private mutating func skipValue() -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return skipString() != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard skipString() != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                default: break
                }
                index += 1
            }
            return false
        default:
            // A number or a literal: up to the next delimiter.
            while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) {
                index += 1
            }
            return true
        }
    }

    /// 1-based line and byte column, counted as the JSON reader counts them (lines end at LF,
    /// CRLF or a lone CR; from after a byte-order mark).
    private mutating func position(ofOffset offset: Int) -> SourcePosition {
        if lineStarts.isEmpty {
            lineStarts.append(start)
            var k = start
            while k < bytes.count {
                let c = bytes[k]
                if c == 0x0A || (c == 0x0D && (k + 1 >= bytes.count || bytes[k + 1] != 0x0A)) { lineStarts.append(k + 1) }
                k += 1
            }
        }
        // The last line start at or before `offset`.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return .text(line: low + 1, column: offset - lineStarts[low] + 1)
    }
}
