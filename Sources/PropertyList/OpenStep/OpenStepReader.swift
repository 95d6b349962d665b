import Diagnostics
import OrderedCollections

/// Reads old-style ASCII property lists (NeXTSTEP/OpenStep) and `.strings` files.
///
/// The grammar and its leniencies follow Apple's `CFOldStylePList.c`: every scalar is a
/// string (unquoted `12` is the string "12"), `;` ends every dictionary entry including the
/// last, arrays allow a trailing comma, `key;` in a dictionary means `key = key;` (the
/// `.strings` shortcut), and a top level of bare `key = value;` pairs is a dictionary. On top
/// of that it reads GNUstep's typed values `<*I…>`, `<*R…>`, `<*BY>`/`<*BN>` and `<*D…>`,
/// which `OpenStepWriter` emits for what OpenStep cannot otherwise spell.
///
/// Stricter than CF where CF silently accepts damage: unterminated `/*` comments, lone
/// UTF-16 surrogates from `\U`, odd hex digit counts and duplicate keys are errors.
///
/// Works over the raw bytes; nesting is walked with an explicit stack and capped at
/// `maxDepth`, so neither the call stack nor (deeply recursive) value teardown can blow up.
package enum OpenStepReader {
    /// Deepest nesting of arrays and dictionaries accepted, as for binary plists.
    static let maxDepth = 512

    static func read(_ bytes: UnsafeRawBufferPointer) throws(PlistError) -> PlistValue {
        // UTF-16 with a byte-order mark: decode to UTF-8; positions then refer to that text.
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            guard let text = TextDecoding.decodeUTF16WithBOM(bytes) else {
                throw PlistError(position: .byteOffset(invalidUTF16Offset(bytes)), message: "invalid UTF-16 text")
            }
            let result = text.withUnsafeBytes { raw in Result { () throws(PlistError) in try parse(raw) } }
            return try result.get()
        }
        // A UTF-8 byte-order mark is skipped; columns on line 1 count from after it, as editors show.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return try parse(UnsafeRawBufferPointer(rebasing: bytes[3...]))
        }
        return try parse(bytes)
    }

    /// Reads like `read`, and also records where every value, key and entry sits, keyed by
    /// key-path components, for lossless editing. UTF-8 text only (offsets are byte offsets
    /// of `bytes`); UTF-16 files are refused.
    package static func readRecordingRanges(_ bytes: UnsafeRawBufferPointer) throws(PlistError) -> (value: PlistValue, ranges: [[String]: OpenStepNodeRange], hasComments: Bool) {
        guard !(bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])) else {
            throw PlistError(position: nil, message: "only UTF-8 OpenStep files can be edited (this one is UTF-16; convert it first)")
        }
        var parser = Parser(text: bytes)
        parser.ranges = [:]
        if let bad = firstInvalidUTF8(bytes) {
            throw parser.fail(bad, "invalid UTF-8 (byte 0x\(String(bytes[bad], radix: 16, uppercase: true)))")
        }
        // A UTF-8 byte-order mark is skipped like whitespace.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.i = 3 }
        let value = try parser.document()
        return (value, parser.ranges ?? [:], parser.sawComment)
    }

    private static func parse(_ text: UnsafeRawBufferPointer) throws(PlistError) -> PlistValue {
        var parser = Parser(text: text)
        // Invariant for everything below: the text is valid UTF-8, so any slice cut at ASCII
        // bytes decodes exactly.
        if let bad = firstInvalidUTF8(text) {
            throw parser.fail(bad, "invalid UTF-8 (byte 0x\(String(text[bad], radix: 16, uppercase: true)))")
        }
        return try parser.document()
    }

    /// Offset of the first byte that is not part of well-formed UTF-8 (no overlong forms,
    /// no surrogates, nothing above U+10FFFF), or nil when all of it is.
    static func firstInvalidUTF8(_ b: UnsafeRawBufferPointer) -> Int? {
        let n = b.count
        var i = 0
        while i < n {
            let c = b[i]
            if c < 0x80 {
                i += 1
                continue
            }
            // Unicode 15, table 3-7: the allowed range of the second byte depends on the first.
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + length <= n, b[i + 1] >= low, b[i + 1] <= high else { return i }
            var k = 2
            while k < length {
                guard b[i + k] & 0xC0 == 0x80 else { return i }
                k += 1
            }
            i += length
        }
        return nil
    }

    /// Byte offset of the first problem in UTF-16 text that failed to decode.
    static func invalidUTF16Offset(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count % 2 == 0 else { return bytes.count - 1 }
        let bigEndian = bytes[0] == 0xFE
        func unit(_ offset: Int) -> UInt16 {
            let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        var offset = 2
        while offset < bytes.count {
            let u = unit(offset)
            if u >= 0xDC00 && u <= 0xDFFF { return offset }
            if u >= 0xD800 && u <= 0xDBFF {
                guard offset + 2 < bytes.count, (0xDC00...0xDFFF).contains(unit(offset + 2)) else { return offset }
                offset += 4
            } else {
                offset += 2
            }
        }
        return 0
    }

    /// NeXTSTEP encoding bytes 0x80...0xFF as Unicode (unicode.org `NEXTSTEP.TXT`, which is
    /// what CF's `kCFStringEncodingNextStepLatin` converter uses for octal escapes). 0xFE and
    /// 0xFF are unassigned there; they read as U+FFFD.
    static let nextStepHigh: [UInt16] = [
        0x00A0, 0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C7,
        0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD, 0x00CE, 0x00CF,
        0x00D0, 0x00D1, 0x00D2, 0x00D3, 0x00D4, 0x00D5, 0x00D6, 0x00D9,
        0x00DA, 0x00DB, 0x00DC, 0x00DD, 0x00DE, 0x00B5, 0x00D7, 0x00F7,
        0x00A9, 0x00A1, 0x00A2, 0x00A3, 0x2044, 0x00A5, 0x0192, 0x00A7,
        0x00A4, 0x2019, 0x201C, 0x00AB, 0x2039, 0x203A, 0xFB01, 0xFB02,
        0x00AE, 0x2013, 0x2020, 0x2021, 0x00B7, 0x00A6, 0x00B6, 0x2022,
        0x201A, 0x201E, 0x201D, 0x00BB, 0x2026, 0x2030, 0x00AC, 0x00BF,
        0x00B9, 0x02CB, 0x00B4, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9,
        0x00A8, 0x00B2, 0x02DA, 0x00B8, 0x00B3, 0x02DD, 0x02DB, 0x02C7,
        0x2014, 0x00B1, 0x00BC, 0x00BD, 0x00BE, 0x00E0, 0x00E1, 0x00E2,
        0x00E3, 0x00E4, 0x00E5, 0x00E7, 0x00E8, 0x00E9, 0x00EA, 0x00EB,
        0x00EC, 0x00C6, 0x00ED, 0x00AA, 0x00EE, 0x00EF, 0x00F0, 0x00F1,
        0x0141, 0x00D8, 0x0152, 0x00BA, 0x00F2, 0x00F3, 0x00F4, 0x00F5,
        0x00F6, 0x00E6, 0x00F9, 0x00FA, 0x00FB, 0x0131, 0x00FC, 0x00FD,
        0x0142, 0x00F8, 0x0153, 0x00DF, 0x00FE, 0x00FF, 0xFFFD, 0xFFFD,
    ]

    /// True for the bytes of an unquoted string: `[A-Za-z0-9_$+/:.-]`. CF's set lacks `+`;
    /// GNUstep's has it, so reading accepts it (`OpenStepWriter` still quotes it).
    @inline(__always)
    static func isUnquoted(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"),
             UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// An open array or dictionary.
    private struct Frame {
        /// Offset of the opening `(` or `{` (of the first key for a brace-less `.strings` top level).
        var start: Int
        var isDictionary: Bool
        /// A `.strings` top level: no braces, ends at the end of the text.
        var isImplicit = false
        var array: [PlistValue] = []
        var dictionary: OrderedDictionary<String, PlistValue> = [:]
        /// Offset of each key, parallel to `dictionary`, to name both places of a duplicate.
        var keyOffsets: [Int] = []
        /// The key whose value is being read, and where it is.
        var key = ""
        var keyOffset = 0
        /// Recording only: the container's key path and the end of the current key.
        var path: [String] = []
        var keyEnd = 0
    }

    private struct Parser {
        let text: UnsafeRawBufferPointer
        /// Offset of the next byte to look at.
        var i = 0
        var stack: [Frame] = []
        /// Reused buffer for strings that contain escapes.
        var scratch: [UInt8] = []
        /// Non-nil only for `readRecordingRanges`: node ranges by key-path components.
        var ranges: [[String]: OpenStepNodeRange]?
        /// Where the value just read starts, and (for a container) its closing bracket.
        var valueStart = 0
        var closingBracket: Int?
        /// Whether `skipSpace` skipped a comment.
        var sawComment = false

        init(text: UnsafeRawBufferPointer) {
            self.text = text
        }

        // MARK: Errors

        /// 1-based line and byte column of `offset`; `\n`, `\r\n` and a lone `\r` end lines.
        func position(_ offset: Int) -> SourcePosition {
            let end = min(max(offset, 0), text.count)
            var line = 1, lineStart = 0, j = 0
            while j < end {
                let c = text[j]
                if c == 0x0A || (c == 0x0D && (j + 1 >= text.count || text[j + 1] != 0x0A)) {
                    line += 1
                    lineStart = j + 1
                }
                j += 1
            }
            return .text(line: line, column: end - lineStart + 1)
        }

        func fail(_ offset: Int, _ message: String) -> PlistError {
            PlistError(position: position(offset), message: message)
        }

        /// The character at `offset` for a message: `'x'`, `U+000A`, `'é'` or `end of file`.
        func describe(_ offset: Int) -> String {
            guard offset < text.count else { return "end of file" }
            let c = text[offset]
            if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
            if c < 0x80 { return "U+\(String(c, radix: 16, uppercase: true).leftPadded(4))" }
            let slice = text[offset..<min(offset + 4, text.count)]
            let scalar = String(decoding: UnsafeRawBufferPointer(rebasing: slice), as: UTF8.self).unicodeScalars.first
            return scalar.map { "'\($0)'" } ?? "byte 0x\(String(c, radix: 16, uppercase: true))"
        }

        func slice(_ from: Int, _ to: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: text[from..<to])
        }

        // MARK: Document

        /// The root value; a brace-less `.strings` file; or an empty dictionary for text
        /// holding only whitespace and comments (CF reads an empty `.strings` file so).
        mutating func document() throws(PlistError) -> PlistValue {
            try skipSpace()
            guard i < text.count else {
                // Only space and comments: an empty `.strings` file (Xcode makes them with a
                // header comment), whose first entry an edit adds at the end.
                if ranges != nil { ranges?[[]] = OpenStepNodeRange(element: i..<i, closingBracket: nil, isImplicit: true) }
                return .dictionary([:])
            }
            let rootStart = i
            let root = try value(stringsFile: false)
            try skipSpace()
            guard i < text.count else { return root }
            // A string root followed by `=` or `;` was the first key of a `.strings` file:
            // read again from the start as dictionary entries up to the end of the text.
            if case .string = root, text[i] == UInt8(ascii: "=") || text[i] == UInt8(ascii: ";") {
                i = rootStart
                if ranges != nil { ranges = [:] }
                let dictionary = try value(stringsFile: true)
                try skipSpace()
                return dictionary
            }
            throw fail(i, "unexpected \(describe(i)) after the root value")
        }

        /// Skips whitespace (ASCII 9...13 and space, U+2028, U+2029, as CF) and comments.
        mutating func skipSpace() throws(PlistError) {
            let n = text.count
            while i < n {
                switch text[i] {
                case 0x20, 0x09...0x0D:
                    i += 1
                case 0xE2 where i + 2 < n && text[i + 1] == 0x80 && (text[i + 2] == 0xA8 || text[i + 2] == 0xA9):
                    i += 3
                case UInt8(ascii: "/") where i + 1 < n && text[i + 1] == UInt8(ascii: "/"):
                    sawComment = true
                    i += 2
                    while i < n, text[i] != 0x0A, text[i] != 0x0D { i += 1 }
                case UInt8(ascii: "/") where i + 1 < n && text[i + 1] == UInt8(ascii: "*"):
                    sawComment = true
                    let start = i
                    i += 2
                    // CF lets an unterminated comment run to the end of the text; that hides
                    // truncation, so here it is an error.
                    while true {
                        guard i + 1 < n else { throw fail(start, "unterminated comment (no closing */)") }
                        if text[i] == UInt8(ascii: "*") && text[i + 1] == UInt8(ascii: "/") { break }
                        i += 1
                    }
                    i += 2
                default:
                    return
                }
            }
        }

        // MARK: Containers

        /// Reads one value at `i` (after whitespace), or with `stringsFile` the entries of a
        /// brace-less dictionary up to the end of the text.
        mutating func value(stringsFile: Bool) throws(PlistError) -> PlistValue {
            stack.removeAll(keepingCapacity: true)
            /// Whether a dictionary key (or its end) is read next rather than a value.
            var readKey = false
            if stringsFile {
                stack.append(Frame(start: i, isDictionary: true, isImplicit: true))
                readKey = true
                valueStart = i
            }
            let n = text.count
            while true {
                var value: PlistValue
                if readKey {
                    guard let closed = try keyOrEnd() else {
                        readKey = false
                        continue
                    }
                    value = closed
                } else {
                    try skipSpace()
                    valueStart = i
                    closingBracket = nil
                    guard i < n else {
                        let open = stack.last.map { position($0.start).description } ?? ""
                        throw fail(i, "unexpected end of file, expected a value"
                            + (open.isEmpty ? "" : " (container opened at \(open) is not closed)"))
                    }
                    switch text[i] {
                    case UInt8(ascii: "{"):
                        try push(isDictionary: true)
                        readKey = true
                        continue
                    case UInt8(ascii: "("):
                        try push(isDictionary: false)
                        try skipSpace()
                        guard i < n, text[i] == UInt8(ascii: ")") else { continue }
                        closingBracket = i
                        i += 1
                        value = .array(stack.removeLast().array)
                    case UInt8(ascii: "<"):
                        value = try data()
                    case UInt8(ascii: "\""), UInt8(ascii: "'"):
                        value = .string(try quotedString())
                    case let c where OpenStepReader.isUnquoted(c):
                        value = .string(unquotedString())
                    default:
                        throw fail(i, "unexpected \(describe(i)), expected a value (string, data, array or dictionary)")
                    }
                }
                // Hand the finished value to its container; close containers that end here.
                deliver: while true {
                    let top = stack.count - 1
                    let valueEnd = i
                    guard top >= 0 else {
                        if ranges != nil {
                            ranges?[[]] = OpenStepNodeRange(element: valueStart..<valueEnd, closingBracket: closingBracket, isImplicit: stringsFile)
                        }
                        return value
                    }
                    if stack[top].isDictionary {
                        let key = stack[top].key
                        stack[top].dictionary[key] = value
                        stack[top].keyOffsets.append(stack[top].keyOffset)
                        try skipSpace()
                        // CF requires `;` after every entry, the last one included.
                        guard i < n, text[i] == UInt8(ascii: ";") else {
                            throw fail(i, "expected ';' after the value of key \"\(key)\", found \(describe(i))")
                        }
                        i += 1
                        if ranges != nil {
                            ranges?[stack[top].path + [key]] = OpenStepNodeRange(
                                element: valueStart..<valueEnd, key: stack[top].keyOffset..<stack[top].keyEnd,
                                entryEnd: i, closingBracket: closingBracket)
                        }
                        readKey = true
                        break deliver
                    }
                    let childPath = ranges == nil ? [] : stack[top].path + [String(stack[top].array.count)]
                    let childRange = OpenStepNodeRange(element: valueStart..<valueEnd, closingBracket: closingBracket)
                    stack[top].array.append(value)
                    try skipSpace()
                    guard i < n else {
                        throw fail(i, "unexpected end of file in array opened at \(position(stack[top].start)) (expected ',' or ')')")
                    }
                    if ranges != nil {
                        var range = childRange
                        if text[i] == UInt8(ascii: ",") { range.entryEnd = i + 1 }
                        ranges?[childPath] = range
                    }
                    if text[i] == UInt8(ascii: ",") {
                        i += 1
                        try skipSpace()
                        // A comma before `)` is allowed, as in CF.
                        guard i < n, text[i] == UInt8(ascii: ")") else {
                            readKey = false
                            break deliver
                        }
                    } else if text[i] != UInt8(ascii: ")") {
                        throw fail(i, "expected ',' or ')' in array, found \(describe(i))")
                    }
                    closingBracket = i
                    valueStart = stack[top].start
                    i += 1
                    value = .array(stack.removeLast().array)
                }
            }
        }

        /// Opens the container whose bracket is at `i`.
        mutating func push(isDictionary: Bool) throws(PlistError) {
            // Bounded depth: the writer, equality and teardown of values all recurse.
            guard stack.count < maxDepth else {
                throw fail(i, "arrays and dictionaries nested deeper than \(maxDepth) levels")
            }
            var frame = Frame(start: i, isDictionary: isDictionary)
            if ranges != nil, let parent = stack.last {
                frame.path = parent.path + [parent.isDictionary ? parent.key : String(parent.array.count)]
            }
            stack.append(frame)
            i += 1
        }

        /// In the dictionary on top of the stack, reads the next key and its `=`, returning
        /// nil; or reads the dictionary's end, pops it and returns it. `key;` entries (value
        /// equal to key) are stored on the way.
        mutating func keyOrEnd() throws(PlistError) -> PlistValue? {
            let n = text.count
            let top = stack.count - 1
            while true {
                try skipSpace()
                let implicit = stack[top].isImplicit
                guard i < n else {
                    guard implicit else {
                        throw fail(i, "unexpected end of file in dictionary opened at \(position(stack[top].start)) (expected a key or '}')")
                    }
                    valueStart = stack[top].start
                    closingBracket = nil
                    return .dictionary(stack.removeLast().dictionary)
                }
                let c = text[i]
                if c == UInt8(ascii: "}") && !implicit {
                    valueStart = stack[top].start
                    closingBracket = i
                    i += 1
                    return .dictionary(stack.removeLast().dictionary)
                }
                let keyOffset = i
                let key: String
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    key = try quotedString()
                } else if OpenStepReader.isUnquoted(c) {
                    key = unquotedString()
                } else {
                    throw fail(i, "expected a key (a string)\(implicit ? "" : " or '}'"), found \(describe(i))")
                }
                // Keys are unique; CF keeps the last silently, which hides mistakes.
                if let first = stack[top].dictionary.index(forKey: key) {
                    var duplicate = fail(keyOffset, "duplicate key \"\(key)\" (first defined at \(position(stack[top].keyOffsets[first])))")
                    duplicate.code = .duplicateKey
                    throw duplicate
                }
                stack[top].keyEnd = i
                try skipSpace()
                guard i < n else {
                    throw fail(i, "expected '=' after key \"\(key)\", found end of file")
                }
                if text[i] == UInt8(ascii: "=") {
                    i += 1
                    stack[top].key = key
                    stack[top].keyOffset = keyOffset
                    return nil
                }
                // CF's `.strings` shortcut: `key;` stands for `key = key;`.
                guard text[i] == UInt8(ascii: ";") else {
                    throw fail(i, "expected '=' after key \"\(key)\", found \(describe(i))")
                }
                i += 1
                stack[top].dictionary[key] = .string(key)
                stack[top].keyOffsets.append(keyOffset)
                if ranges != nil {
                    // `key;`: the value is the key itself; the element is the key's text.
                    ranges?[stack[top].path + [key]] = OpenStepNodeRange(
                        element: keyOffset..<stack[top].keyEnd, key: keyOffset..<stack[top].keyEnd, entryEnd: i, isShortcut: true)
                }
            }
        }

        // MARK: Strings

        mutating func unquotedString() -> String {
            let start = i
            while i < text.count, OpenStepReader.isUnquoted(text[i]) { i += 1 }
            return String(decoding: slice(start, i), as: UTF8.self)
        }

        /// Reads the `"…"` or `'…'` string whose opening quote is at `i`.
        mutating func quotedString() throws(PlistError) -> String {
            let start = i
            let quote = text[i]
            let n = text.count
            i += 1
            var runStart = i
            var escaped = false
            while i < n {
                let c = text[i]
                if c == quote {
                    let result: String
                    if escaped {
                        scratch.append(contentsOf: slice(runStart, i))
                        result = String(decoding: scratch, as: UTF8.self)
                    } else {
                        result = String(decoding: slice(runStart, i), as: UTF8.self)
                    }
                    i += 1
                    return result
                }
                if c == UInt8(ascii: "\\") {
                    if !escaped {
                        scratch.removeAll(keepingCapacity: true)
                        escaped = true
                    }
                    scratch.append(contentsOf: slice(runStart, i))
                    try escape(stringStart: start)
                    runStart = i
                    continue
                }
                i += 1
            }
            throw fail(start, "unterminated string (no closing \(quote == UInt8(ascii: "'") ? "'" : "\""))")
        }

        /// Decodes the escape whose backslash is at `i` into `scratch` and moves past it.
        /// An unknown escape stands for the character after the backslash, as in CF.
        mutating func escape(stringStart: Int) throws(PlistError) {
            let n = text.count
            let backslash = i
            guard i + 1 < n else { throw fail(stringStart, "unterminated string (ends in a backslash)") }
            let c = text[i + 1]
            i += 2
            switch c {
            case UInt8(ascii: "a"): scratch.append(0x07)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "v"): scratch.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                // One to three octal digits naming a NeXTSTEP-encoded byte. CF accumulates in
                // a uint8_t, so `\400` wraps to 0; the same here.
                var byte = c &- UInt8(ascii: "0")
                var digits = 1
                while digits < 3, i < n, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "7") {
                    byte = byte &<< 3 &+ (text[i] &- UInt8(ascii: "0"))
                    i += 1
                    digits += 1
                }
                if byte < 0x80 {
                    scratch.append(byte)
                } else {
                    appendScalar(UInt32(OpenStepReader.nextStepHigh[Int(byte) - 0x80]))
                }
            case UInt8(ascii: "U"):
                // One to four hex digits: a UTF-16 code unit; surrogates must come in pairs
                // written as two consecutive escapes.
                let unit = try hexUnit(backslash)
                switch unit {
                case 0xD800...0xDBFF:
                    guard i + 1 < n, text[i] == UInt8(ascii: "\\"), text[i + 1] == UInt8(ascii: "U") else {
                        throw fail(backslash, "\\U\(hex4(unit)) is a lone UTF-16 high surrogate (no \\U low surrogate follows)")
                    }
                    let lowStart = i
                    i += 2
                    let low = try hexUnit(lowStart)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw fail(backslash, "\\U\(hex4(unit)) is a lone UTF-16 high surrogate (followed by \\U\(hex4(low)))")
                    }
                    appendScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                case 0xDC00...0xDFFF:
                    throw fail(backslash, "\\U\(hex4(unit)) is a lone UTF-16 low surrogate")
                default:
                    appendScalar(unit)
                }
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"):
                scratch.append(c)
            default:
                // `\` + newline and unknown escapes: the character itself. Step back so it is
                // copied as part of the next run (it may be multi-byte; it is not a quote or
                // backslash, so the run goes on past it).
                i -= 1
            }
        }

        /// Reads the 1...4 hex digits after the `\U` that starts at `escapeStart` (`i` is past the U).
        mutating func hexUnit(_ escapeStart: Int) throws(PlistError) -> UInt32 {
            var unit: UInt32 = 0
            var digits = 0
            while digits < 4, i < text.count, let d = OpenStepReader.hexValue(text[i]) {
                unit = unit << 4 | UInt32(d)
                i += 1
                digits += 1
            }
            guard digits > 0 else { throw fail(escapeStart, "\\U must be followed by 1 to 4 hex digits") }
            return unit
        }

        func hex4(_ unit: UInt32) -> String {
            String(unit, radix: 16, uppercase: true).leftPadded(4)
        }

        /// Appends a scalar's UTF-8 to `scratch`. Callers pass values below 0x110000 that are not surrogates.
        mutating func appendScalar(_ v: UInt32) {
            switch v {
            case 0..<0x80:
                scratch.append(UInt8(truncatingIfNeeded: v))
            case 0x80..<0x800:
                scratch.append(UInt8(truncatingIfNeeded: 0xC0 | v >> 6))
                scratch.append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
            case 0x800..<0x10000:
                scratch.append(UInt8(truncatingIfNeeded: 0xE0 | v >> 12))
                scratch.append(UInt8(truncatingIfNeeded: 0x80 | v >> 6 & 0x3F))
                scratch.append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
            default:
                scratch.append(UInt8(truncatingIfNeeded: 0xF0 | v >> 18))
                scratch.append(UInt8(truncatingIfNeeded: 0x80 | v >> 12 & 0x3F))
                scratch.append(UInt8(truncatingIfNeeded: 0x80 | v >> 6 & 0x3F))
                scratch.append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
            }
        }

        // MARK: Data and typed values

        /// Reads `<hex bytes>` or a GNUstep typed value `<*…>` whose `<` is at `i`.
        mutating func data() throws(PlistError) -> PlistValue {
            let start = i
            let n = text.count
            i += 1
            if i < n, text[i] == UInt8(ascii: "*") { return try typed(start) }
            var bytes: [UInt8] = []
            var high: UInt8?
            var highOffset = 0
            while true {
                guard i < n else { throw fail(start, "unterminated data (no closing '>')") }
                let c = text[i]
                if let d = OpenStepReader.hexValue(c) {
                    if let h = high {
                        bytes.append(h << 4 | d)
                        high = nil
                    } else {
                        high = d
                        highOffset = i
                    }
                } else if c == UInt8(ascii: ">") {
                    break
                } else if !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D) {
                    throw fail(i, "invalid character \(describe(i)) in data (hex digits and whitespace only)")
                }
                i += 1
            }
            // Whole bytes only: an unpaired digit means the data was cut or mistyped.
            guard high == nil else {
                throw fail(highOffset, "data has an odd number of hex digits (this one has no partner)")
            }
            i += 1
            return .data(bytes)
        }

        /// GNUstep's `<*I12>`, `<*R1.5>`, `<*BY>`/`<*BN>`, `<*D2024-01-02 03:04:05 +0000>`.
        mutating func typed(_ start: Int) throws(PlistError) -> PlistValue {
            let n = text.count
            i += 1
            guard i < n else { throw fail(start, "unterminated typed value (no closing '>')") }
            let kind = text[i]
            let bodyStart = i + 1
            var end = bodyStart
            while end < n, text[end] != UInt8(ascii: ">") { end += 1 }
            guard end < n else { throw fail(start, "unterminated typed value (no closing '>')") }
            let body = slice(bodyStart, end)
            let shown = String(decoding: body.prefix(40), as: UTF8.self)
            i = end + 1
            switch kind {
            case UInt8(ascii: "I"):
                guard let value = PlistInteger(ascii: body) else {
                    throw fail(start, "invalid integer <*I\(shown)> (expected \(Int64.min)...\(UInt64.max))")
                }
                return .integer(value)
            case UInt8(ascii: "R"):
                guard let value = PlistReal.parse(body) else { throw fail(start, "invalid real <*R\(shown)>") }
                return .real(value)
            case UInt8(ascii: "B"):
                if body.elementsEqual("Y".utf8) { return .bool(true) }
                if body.elementsEqual("N".utf8) { return .bool(false) }
                throw fail(start, "invalid boolean <*B\(shown)> (expected <*BY> or <*BN>)")
            case UInt8(ascii: "D"):
                guard let date = Self.date(body) else {
                    throw fail(start, "invalid date <*D\(shown)> (expected YYYY-MM-DD HH:MM:SS +HHMM)")
                }
                return .date(date)
            default:
                throw fail(start, "unknown typed value: \(describe(start + 2)) after <* (expected I, R, B or D)")
            }
        }

        /// Parses `YYYY-MM-DD HH:MM:SS ±HHMM` (GNUstep's `%Y-%m-%d %H:%M:%S %z`).
        static func date(_ s: UnsafeRawBufferPointer) -> PlistDate? {
            guard s.count == 25 else { return nil }
            func digits(_ from: Int, _ count: Int) -> Int? {
                var v = 0
                for k in from..<(from + count) {
                    let c = s[k]
                    guard c >= 0x30, c <= 0x39 else { return nil }
                    v = v * 10 + Int(c - 0x30)
                }
                return v
            }
            guard s[4] == UInt8(ascii: "-"), s[7] == UInt8(ascii: "-"), s[10] == 0x20,
                  s[13] == UInt8(ascii: ":"), s[16] == UInt8(ascii: ":"), s[19] == 0x20,
                  s[20] == UInt8(ascii: "+") || s[20] == UInt8(ascii: "-"),
                  let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
                  let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
                  let zoneHours = digits(21, 2), let zoneMinutes = digits(23, 2),
                  zoneHours <= 23, zoneMinutes <= 59,
                  let local = PlistDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            else { return nil }
            let offset = Double((zoneHours * 60 + zoneMinutes) * 60) * (s[20] == UInt8(ascii: "-") ? -1 : 1)
            return PlistDate(secondsSinceReferenceDate: local.secondsSinceReferenceDate - offset)
        }
    }
}
