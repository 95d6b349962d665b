import Diagnostics
import OrderedCollections

/// The strict RFC 8259 grammar over UTF-8 bytes, with an explicit stack of open containers
/// instead of recursion; `JSONPlistReader` is its entry point.
struct JSONParser {
    package let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Open containers, innermost last.
    var stack: [Frame] = []
    /// Offsets of every key of every open object, so a duplicate can name the first one.
    /// Shared by all frames: an inner object is finished before its parent adds a key.
    var keyOffsets: [Int] = []
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []
    /// Elements an array keeps; later ones are parsed (the syntax is still checked) and
    /// dropped, so a reader that reads only the first few thousand of an array does not hold
    /// all of them (500k crash frames took 582 MB, issue 15 §5).
    var maxArrayElements = Int.max
    /// Deepest nesting accepted (`JSONPlistReader.maxDepth` unless a reader asks for more).
    var maxDepth = JSONPlistReader.maxDepth
    /// One per cut array (the first `maxWarnings`), naming where it opened and its length.
    var warnings: [PlistWarning] = []
    /// Recording only (nil otherwise): where each value starts, by key-path components
    /// (array indices as decimal strings), for tools that point at a value.
    var valueOffsets: [[String]: Int]?
    /// Recording only: the paths worth recording, with all their ancestors (nil: every
    /// value). Recording every value of a large file cost more than parsing it.
    var recordedPaths: Set<[String]>?
    /// Recording only: the path of the value being parsed when it is recorded, handed to its
    /// frame if it is a container (whose children may then be recorded).
    var pendingPath: [String]?
    static let maxWarnings = 16

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: Positions and errors

    /// 1-based line and byte column of `offset`; lines end at LF, CRLF or a lone CR.
    /// Computed only when reporting an error, so the hot path tracks nothing.
    func position(of offset: Int) -> SourcePosition {
        let offset = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        var k = 0
        while k < offset {
            let c = bytes[k]
            if c == Byte.lineFeed
                || (c == Byte.carriageReturn && (k + 1 >= bytes.count || bytes[k + 1] != Byte.lineFeed)) {
                line += 1
                lineStart = k + 1
            }
            k += 1
        }
        return .text(line: line, column: offset - lineStart + 1)
    }

    func error(at offset: Int, _ message: String) -> PlistError {
        PlistError(position: position(of: offset), message: message)
    }

    /// The byte at `offset` for a message: `'x'` when printable ASCII, else its code.
    func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let c = bytes[offset]
        if c > 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        if c < 0x80 { return "U+\(String(c, radix: 16, uppercase: true).leftPadded(4))" }
        return "byte 0x\(String(c, radix: 16, uppercase: true))"
    }

    // MARK: Structure

    mutating func skipWhitespace() {
        while index < bytes.count, Byte.isWhitespace(bytes[index]) { index += 1 }
    }

    mutating func parseDocument() throws(PlistError) -> PlistValue {
        skipWhitespace()
        guard index < bytes.count else {
            throw error(at: index, "empty input: expected a JSON value")
        }
        let value = try parseValue()
        skipWhitespace()
        // RFC 8259 §2: a JSON text is exactly one value.
        guard index == bytes.count else {
            throw error(at: index, "unexpected \(describe(at: index)) after the top-level value")
        }
        return value
    }

    /// Parses one value starting at `index` (whitespace already skipped), nested containers
    /// included, using `stack` instead of recursion.
    mutating func parseValue() throws(PlistError) -> PlistValue {
        var value: PlistValue
        nextValue: while true {
            guard index < bytes.count else { throw unexpectedEnd() }
            if valueOffsets != nil { recordValueStart() }
            let c = bytes[index]
            switch c {
            case Byte.openBracket:
                let open = index
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == Byte.closeBracket {
                    index += 1
                    value = .array([])
                } else {
                    try push(Frame(isDictionary: false, openOffset: open, recordedPath: pendingPath))
                    continue nextValue
                }
            case Byte.openBrace:
                let open = index
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == Byte.closeBrace {
                    index += 1
                    value = .dictionary([:])
                } else {
                    try push(Frame(isDictionary: true, openOffset: open, keyOffsetsBase: keyOffsets.count, recordedPath: pendingPath))
                    try parseKey(afterComma: nil)
                    continue nextValue
                }
            case Byte.quote:
                value = .string(try parseString())
            case Byte.minus, Byte.zero...Byte.nine:
                value = try parseNumber()
            case Byte.plus:
                throw error(at: index, "'+' is not allowed before a JSON number")
            case Byte.dot:
                throw error(at: index, "a JSON number needs a digit before '.'")
            default:
                if Byte.isWordByte(c) {
                    value = try parseLiteral()
                } else if c >= 0x80 {
                    throw error(at: index, "unexpected \(describe(at: index)) (non-ASCII outside a string): expected a JSON value")
                } else {
                    throw error(at: index, "unexpected \(describe(at: index)): expected a JSON value")
                }
            }

            // `value` is complete: store it in its container, closing containers as they end.
            while true {
                let top = stack.count - 1
                guard top >= 0 else { return value }
                skipWhitespace()
                if stack[top].isDictionary {
                    let key = stack[top].key
                    let count = stack[top].dictionary.count
                    let (previous, existing) = stack[top].dictionary.updateValue(value, forKey: key, insertingAt: count)
                    // Invariant: keys of one object are unique (plist dictionaries cannot repeat them).
                    guard previous == nil else {
                        let first = position(of: keyOffsets[stack[top].keyOffsetsBase + existing])
                        var duplicate = error(at: stack[top].keyOffset, "duplicate key \"\(key.prefix(60))\" (first defined at \(first))")
                        duplicate.code = .duplicateKey
                        throw duplicate
                    }
                    keyOffsets.append(stack[top].keyOffset)
                    guard index < bytes.count else { throw notClosed(stack[top]) }
                    switch bytes[index] {
                    case Byte.comma:
                        let comma = index
                        index += 1
                        skipWhitespace()
                        try parseKey(afterComma: comma)
                        continue nextValue
                    case Byte.closeBrace:
                        index += 1
                        let frame = stack.removeLast()
                        keyOffsets.removeSubrange(frame.keyOffsetsBase...)
                        value = .dictionary(frame.dictionary)
                    default:
                        throw error(at: index, "expected ',' or '}' after an object member, found \(describe(at: index))")
                    }
                } else {
                    if stack[top].array.count < maxArrayElements {
                        stack[top].array.append(value)
                    } else {
                        stack[top].dropped += 1
                    }
                    guard index < bytes.count else { throw notClosed(stack[top]) }
                    switch bytes[index] {
                    case Byte.comma:
                        let comma = index
                        index += 1
                        skipWhitespace()
                        if index < bytes.count, bytes[index] == Byte.closeBracket {
                            throw error(at: comma, "trailing comma before ']' is not allowed in JSON")
                        }
                        continue nextValue
                    case Byte.closeBracket:
                        index += 1
                        let frame = stack.removeLast()
                        if frame.dropped > 0, warnings.count < Self.maxWarnings {
                            warnings.append(PlistWarning(position: position(of: frame.openOffset),
                                                         message: "an array of \(frame.array.count + frame.dropped) elements: only the first \(maxArrayElements) are kept"))
                        }
                        value = .array(frame.array)
                    default:
                        throw error(at: index, "expected ',' or ']' after an array element, found \(describe(at: index))")
                    }
                }
            }
        }
    }

    /// Records that the value at the current path starts at `index`, when that path is
    /// wanted. Only containers on a wanted path know their own path, so a value elsewhere
    /// costs one check.
    mutating func recordValueStart() {
        pendingPath = nil
        let path: [String]
        if let top = stack.last {
            guard let container = top.recordedPath else { return }
            path = container + [top.isDictionary ? top.key : String(top.array.count + top.dropped)]
        } else {
            path = []
        }
        guard recordedPaths?.contains(path) ?? true else { return }
        valueOffsets?[path] = index
        pendingPath = path
    }

    mutating func push(_ frame: Frame) throws(PlistError) {
        // Invariant: nesting stays within maxDepth, so hostile input cannot exhaust memory.
        guard stack.count < maxDepth else {
            throw error(at: frame.openOffset, "arrays and objects nest deeper than \(maxDepth) levels")
        }
        stack.append(frame)
    }

    /// Frees the open containers' finished children without recursion (after an error: a
    /// child may be nested up to `maxDepth` levels).
    mutating func releaseOpenContainers() {
        while var frame = stack.popLast() {
            var items = frame.array + Array(frame.dictionary.values)
            frame = Frame(isDictionary: false, openOffset: 0)
            // `frame`'s containers are gone: each item is owned by `items` alone.
            for index in items.indices { PlistValue.releaseIteratively(&items[index]) }
        }
    }

    /// Parses `"key"` and `:` of an object member into the innermost frame, leaving `index`
    /// at the value. `afterComma` is the offset of the preceding ',' (nil for the first key).
    mutating func parseKey(afterComma comma: Int?) throws(PlistError) {
        let top = stack.count - 1
        guard index < bytes.count else { throw notClosed(stack[top]) }
        guard bytes[index] == Byte.quote else {
            if let comma, bytes[index] == Byte.closeBrace {
                throw error(at: comma, "trailing comma before '}' is not allowed in JSON")
            }
            throw error(at: index, "expected a string key in double quotes, found \(describe(at: index))")
        }
        let keyOffset = index
        let key = try parseString()
        skipWhitespace()
        guard index < bytes.count else { throw notClosed(stack[top]) }
        guard bytes[index] == Byte.colon else {
            throw error(at: index, "expected ':' after object key, found \(describe(at: index))")
        }
        index += 1
        skipWhitespace()
        stack[top].key = key
        stack[top].keyOffset = keyOffset
    }

    func unexpectedEnd() -> PlistError {
        if let frame = stack.last { return notClosed(frame) }
        return error(at: index, "unexpected end of input: expected a JSON value")
    }

    func notClosed(_ frame: Frame) -> PlistError {
        let what = frame.isDictionary ? "object" : "array"
        return error(at: index, "unexpected end of input: \(what) opened at \(position(of: frame.openOffset)) is not closed")
    }

    // MARK: Scalars

    /// `true`, `false`; `null` and any other bare word are errors.
    mutating func parseLiteral() throws(PlistError) -> PlistValue {
        let start = index
        while index < bytes.count, Byte.isWordByte(bytes[index]) { index += 1 }
        let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if word.elementsEqual("true".utf8) { return .bool(true) }
        if word.elementsEqual("false".utf8) { return .bool(false) }
        if word.elementsEqual("null".utf8) {
            throw error(at: start, "null is not allowed: property lists have no null value")
        }
        let shown = String(decoding: word.prefix(40), as: UTF8.self)
        throw error(at: start, "unexpected word '\(shown)': expected a JSON value (strings need double quotes)")
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(PlistError) -> PlistValue {
        let start = index
        let negative = bytes[index] == Byte.minus
        if negative { index += 1 }
        guard index < bytes.count, Byte.isDigit(bytes[index]) else {
            throw error(at: index, "expected a digit after '-', found \(describe(at: index))")
        }
        let digitsStart = index
        if bytes[index] == Byte.zero {
            index += 1
            // RFC 8259: no leading zeros ("01" is not a JSON number).
            if index < bytes.count, Byte.isDigit(bytes[index]) {
                throw error(at: start, "leading zeros are not allowed in JSON numbers")
            }
        } else {
            while index < bytes.count, Byte.isDigit(bytes[index]) { index += 1 }
        }
        let digitsEnd = index
        var isInteger = true
        if index < bytes.count, bytes[index] == Byte.dot {
            isInteger = false
            index += 1
            guard index < bytes.count, Byte.isDigit(bytes[index]) else {
                throw error(at: index, "expected a digit after '.' in a number, found \(describe(at: index))")
            }
            while index < bytes.count, Byte.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == Byte.plus || bytes[index] == Byte.minus { index += 1 }
            guard index < bytes.count, Byte.isDigit(bytes[index]) else {
                throw error(at: index, "expected a digit in the exponent, found \(describe(at: index))")
            }
            while index < bytes.count, Byte.isDigit(bytes[index]) { index += 1 }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])

        if isInteger {
            var magnitude: UInt64 = 0
            var overflow = false
            for k in digitsStart..<digitsEnd {
                let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(UInt64(bytes[k] &- Byte.zero))
                magnitude = s
                if o1 || o2 { overflow = true; break }
            }
            // Invariant: integers are exact within Int64.min ... UInt64.max, never rounded to Double.
            guard !overflow, let integer = PlistInteger(isNegative: negative, magnitude: magnitude) else {
                throw error(at: start, "integer \(Self.abbreviated(text)) out of range (property-list integers span \(Int64.min)...\(UInt64.max))")
            }
            return .integer(integer)
        }
        // The grammar checked above is a subset of what Swift's Double parser accepts.
        guard let value = Double(String(decoding: text, as: UTF8.self)) else {
            throw error(at: start, "invalid number \(Self.abbreviated(text))")
        }
        // Invariant: a finite literal stays finite (JSON cannot spell infinity, so neither can we read one).
        guard value.isFinite else {
            throw error(at: start, "number \(Self.abbreviated(text)) out of range for a 64-bit real")
        }
        return .real(PlistReal(value))
    }

    static func abbreviated(_ text: UnsafeBufferPointer<UInt8>) -> String {
        text.count <= 40
            ? String(decoding: text, as: UTF8.self)
            : String(decoding: text.prefix(20), as: UTF8.self) + "…(\(text.count) characters)"
    }

    /// Parses a string at `index` (the opening quote). Strings without escapes are copied once
    /// from the input; others are assembled in `scratch`.
    mutating func parseString() throws(PlistError) -> String {
        let open = index
        index += 1
        let start = index
        // Fast path: plain text up to the closing quote.
        while index < bytes.count {
            let c = bytes[index]
            if c == Byte.quote {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return String(decoding: text, as: UTF8.self)
            }
            if c == Byte.backslash { break }
            if c < 0x20 { throw controlCharacter(at: index) }
            if c >= 0x80 { try skipUTF8Sequence() } else { index += 1 }
        }
        guard index < bytes.count else { throw unterminatedString(at: open) }

        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let c = bytes[index]
            switch c {
            case Byte.quote:
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case Byte.backslash:
                try parseEscape(stringAt: open)
            case 0..<0x20:
                throw controlCharacter(at: index)
            case 0x80...:
                let sequenceStart = index
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<index]))
            default:
                scratch.append(c)
                index += 1
            }
        }
        throw unterminatedString(at: open)
    }

    func controlCharacter(at offset: Int) -> PlistError {
        error(at: offset, "control character \(describe(at: offset)) must be escaped in a JSON string")
    }

    func unterminatedString(at open: Int) -> PlistError {
        error(at: open, "unterminated string: no closing '\"' before the end of input")
    }

    /// Decodes the escape at `index` (the backslash) into `scratch`. RFC 8259 §7.
    mutating func parseEscape(stringAt open: Int) throws(PlistError) {
        let escape = index
        guard index + 1 < bytes.count else { throw unterminatedString(at: open) }
        let c = bytes[index + 1]
        index += 2
        switch c {
        case Byte.quote, Byte.backslash, Byte.slash: scratch.append(c)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hex4(escapeAt: escape, stringAt: open)
            var scalar = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                // Invariant: a high surrogate is followed at once by `\u` and a low surrogate.
                guard index + 1 < bytes.count, bytes[index] == Byte.backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw loneSurrogate(unit, at: escape)
                }
                let lowEscape = index
                index += 2
                let low = try hex4(escapeAt: lowEscape, stringAt: open)
                guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(unit, at: escape) }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10 | (UInt32(low) - 0xDC00))
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw loneSurrogate(unit, at: escape)
            }
            appendUTF8(scalar)
        default:
            let shown = c > 0x20 && c < 0x7F ? "'\\\(Character(Unicode.Scalar(c)))'" : "'\\' followed by \(describe(at: escape + 1))"
            throw error(at: escape, "invalid escape \(shown) in string (JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
    }

    /// Reads the four hex digits after `\u`; `index` moves past them.
    mutating func hex4(escapeAt escape: Int, stringAt open: Int) throws(PlistError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw unterminatedString(at: open) }
            let c = bytes[index]
            let digit: UInt8
            switch c {
            case Byte.zero...Byte.nine: digit = c - Byte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default:
                throw error(at: escape, "\\u escape needs four hex digits, found \(describe(at: index))")
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    func loneSurrogate(_ unit: UInt16, at offset: Int) -> PlistError {
        let hex = String(unit, radix: 16, uppercase: true)
        return error(at: offset, "lone surrogate \\u\(hex) in string (a surrogate pair needs a high \\uD800-\\uDBFF then a low \\uDC00-\\uDFFF)")
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Moves past one well-formed UTF-8 sequence starting at `index` (a byte >= 0x80), per
    /// Unicode Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF.
    mutating func skipUTF8Sequence() throws(PlistError) {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw invalidUTF8(at: index)
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else {
            throw invalidUTF8(at: index)
        }
        var k = 2
        while k < length {
            guard bytes[index + k] & 0xC0 == 0x80 else { throw invalidUTF8(at: index) }
            k += 1
        }
        index += length
    }

    func invalidUTF8(at offset: Int) -> PlistError {
        error(at: offset, "invalid UTF-8 in string (sequence starting with byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))")
    }
}

extension JSONParser {
    /// ASCII bytes the grammar names.
    enum Byte {
        static let quote = UInt8(ascii: "\"")
        static let backslash = UInt8(ascii: "\\")
        static let slash = UInt8(ascii: "/")
        static let comma = UInt8(ascii: ",")
        static let colon = UInt8(ascii: ":")
        static let openBracket = UInt8(ascii: "[")
        static let closeBracket = UInt8(ascii: "]")
        static let openBrace = UInt8(ascii: "{")
        static let closeBrace = UInt8(ascii: "}")
        static let minus = UInt8(ascii: "-")
        static let plus = UInt8(ascii: "+")
        static let dot = UInt8(ascii: ".")
        static let zero = UInt8(ascii: "0")
        static let nine = UInt8(ascii: "9")
        static let lineFeed: UInt8 = 0x0A
        static let carriageReturn: UInt8 = 0x0D

        static func isDigit(_ c: UInt8) -> Bool { c >= zero && c <= nine }

        /// RFC 8259 §2 `ws`: space, horizontal tab, line feed, carriage return. Nothing else.
        static func isWhitespace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

        /// Letters, digits and `_`: what a mistyped literal (`True`, `NaN`, `undefined`) is made of.
        static func isWordByte(_ c: UInt8) -> Bool {
            isDigit(c) || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z")) || c == UInt8(ascii: "_")
        }
    }

    /// One open array or object on the explicit parse stack.
    struct Frame {
        var isDictionary: Bool
        /// Offset of the `[` or `{`, for "not closed" errors.
        var openOffset: Int
        var array: [PlistValue] = []
        var dictionary: OrderedDictionary<String, PlistValue> = [:]
        /// Where this object's key offsets start in `JSONParser.keyOffsets`.
        var keyOffsetsBase = 0
        /// Elements parsed past `maxArrayElements` and not kept.
        var dropped = 0
        /// Recording: this container's key path when its children may be recorded.
        var recordedPath: [String]?
        /// The key whose value is being parsed, and where it starts.
        package var key = ""
        var keyOffset = 0
    }
}
