/// Reads JSON (RFC 8259, strictly) into a property-list value.
///
/// Hand-written rather than Foundation's `JSONSerialization`, which loses dictionary key order
/// (plists keep it, via `OrderedDictionary`) and turns integers above `Int64.max` into
/// `Double`; plists need the full `Int64.min ... UInt64.max` range exactly.
///
/// Mapping: objects → `.dictionary` (keys in file order), arrays → `.array`, strings →
/// `.string`, `true`/`false` → `.bool`, numbers without fraction or exponent → `.integer`,
/// other numbers → `.real`. `null` is an error: property lists have no null. JSON has no
/// dates, data or UIDs, so none come back (the writer spells dates and data as strings).
///
/// Input is UTF-8 (an initial UTF-8 byte-order mark is skipped) or UTF-16 with a byte-order
/// mark, which is converted to UTF-8 first; positions then refer to the converted text.
/// Errors carry a 1-based `line:column` (columns count bytes). Nesting is limited to
/// `maxDepth` levels, checked with an explicit stack rather than recursion.
package enum JSONPlistReader {
    /// Deepest nesting of arrays and objects accepted: far beyond real files, and small
    /// enough that building and freeing the nested values stays cheap.
    static let maxDepth = 512

    static func read(_ bytes: UnsafeRawBufferPointer) throws(PlistError) -> PlistValue {
        try read(bytes, maxArrayElements: .max).value
    }

    /// Keeps at most `maxArrayElements` of each array (later elements are checked and
    /// dropped), with a warning per cut array.
    ///
    /// `maxDepth` above `maxDepth`'s default is for readers whose files really nest deeply
    /// (MetricKit call stacks: two levels a frame); parsing is iterative, and on an error the
    /// finished children are freed without recursion, but the caller must free a deep value
    /// it gets with `PlistValue.releaseIteratively`.
    static func read(_ bytes: UnsafeRawBufferPointer, maxArrayElements: Int, maxDepth: Int = maxDepth) throws(PlistError) -> (value: PlistValue, warnings: [PlistWarning]) {
        // UTF-16 needs a byte-order mark to be recognised; convert it and parse the UTF-8.
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            guard let utf8 = TextDecoding.decodeUTF16WithBOM(bytes) else {
                throw PlistError(position: .text(line: 1, column: 1),
                                 message: "input starts with a UTF-16 byte-order mark but is not valid UTF-16")
            }
            let result = utf8.withUnsafeBufferPointer { buffer in
                Result { () throws(PlistError) in try parse(buffer, maxArrayElements: maxArrayElements, maxDepth: maxDepth) }
            }
            return try result.get()
        }
        var body = bytes
        // RFC 8259 §8.1: a parser may ignore a UTF-8 byte-order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { body = UnsafeRawBufferPointer(rebasing: bytes[3...]) }
        let result = body.withMemoryRebound(to: UInt8.self) { buffer in
            Result { () throws(PlistError) in try parse(buffer, maxArrayElements: maxArrayElements, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// Reads like `read`, and also records where values start, keyed by key-path components:
    /// byte offsets from after a UTF-8 byte-order mark, as the reader's positions count. With
    /// `focus`, only those paths and their ancestors are recorded. Nil offsets for UTF-16
    /// input, which is parsed after conversion: its offsets would be the converted text's.
    package static func readRecordingOffsets(_ bytes: UnsafeRawBufferPointer, focus: [[String]]? = nil) throws(PlistError) -> (value: PlistValue, offsets: [[String]: Int]?) {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return (try read(bytes), nil) }
        var body = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { body = UnsafeRawBufferPointer(rebasing: bytes[3...]) }
        let result = body.withMemoryRebound(to: UInt8.self) { buffer in
            Result { () throws(PlistError) -> (PlistValue, [[String]: Int]?) in
                var parser = JSONParser(buffer)
                parser.valueOffsets = [:]
                parser.recordedPaths = focus.map { paths in
                    Set(paths.flatMap { path in (0...path.count).map { Array(path.prefix($0)) } })
                }
                let value = try parser.parseDocument()
                return (value, parser.valueOffsets)
            }
        }
        return try result.get()
    }

    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>, maxArrayElements: Int, maxDepth: Int) throws(PlistError) -> (value: PlistValue, warnings: [PlistWarning]) {
        var parser = JSONParser(buffer)
        parser.maxArrayElements = max(maxArrayElements, 0)
        parser.maxDepth = max(maxDepth, 1)
        do {
            let value = try parser.parseDocument()
            return (value, parser.warnings)
        } catch {
            parser.releaseOpenContainers()
            throw error
        }
    }
}
