import Diagnostics
import OrderedCollections
internal import PlistXMLShim

/// Reads Apple XML property lists (`<plist version="1.0">`), strictly.
///
/// `PlistXMLShim` does the XML: its direct tokenizer reads the common shape of a plist, expat
/// everything else (encodings, CDATA, malformed documents and their messages); the shim
/// refuses entity declarations and never loads a DTD. This
/// type turns the token stream into a `PlistValue` and enforces the plist DTD: a `<plist>`
/// root with one value, known tags only, keys paired with values, no duplicate keys, and
/// well-formed integers, reals, dates and base64. Nesting is walked with an explicit stack,
/// so depth costs heap, not call stack.
package enum XMLPlistReader {
    /// Input is fed to expat in pieces of this size; tokens are consumed after each piece,
    /// so memory for tokens stays near one piece's worth whatever the document's size.
    static let pieceSize = 1 << 20

    static func read(_ bytes: UnsafeRawBufferPointer) throws(PlistError) -> PlistValue {
        var builder = Builder()
        return try parse(bytes, into: &builder)
    }

    /// Reads like `read`, and also records where every value (and every dictionary entry's
    /// `<key>`) sits in `bytes`, keyed by key-path components. For lossless editing.
    /// With `focus`, only the nodes an edit of that path needs are recorded: the path's
    /// ancestors, the path itself and its siblings (recording every node of a large file
    /// costs more than parsing it).
    package static func readRecordingRanges(_ bytes: UnsafeRawBufferPointer, focus: [String]? = nil) throws(PlistError) -> (value: PlistValue, ranges: [[String]: XMLNodeRange]) {
        var builder = Builder()
        builder.ranges = [:]
        builder.focus = focus
        builder.input = bytes
        let value = try parse(bytes, into: &builder)
        return (value, builder.ranges ?? [:])
    }

    /// Tokens the direct tokenizer hands over at a time: bounds their memory like `pieceSize`.
    static let directTokenLimit = 1 << 16

    private static func parse(_ bytes: UnsafeRawBufferPointer, into builder: inout Builder) throws(PlistError) -> PlistValue {
        builder.input = bytes
        let unstarted = builder
        if let value = try parseDirectly(bytes, into: &builder) { return value }
        builder = unstarted
        return try parseWithExpat(bytes, into: &builder)
    }

    /// The document read by the shim's direct tokenizer, or nil when it leaves the document
    /// to expat (another encoding, CDATA, an unknown element, malformed XML…). A plist error
    /// thrown here comes before any XML error, as on the expat path: the direct tokenizer
    /// hands over only tokens of well-formed XML.
    private static func parseDirectly(_ bytes: UnsafeRawBufferPointer, into builder: inout Builder) throws(PlistError) -> PlistValue? {
        guard let parser = px_parser_create() else {
            throw PlistError(position: nil, message: "cannot create an XML parser (out of memory)")
        }
        defer { px_parser_free(parser) }
        let base = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
        while true {
            let status = px_parser_tokenize(parser, base, bytes.count, directTokenLimit)
            if status == PX_DIRECT_UNSUPPORTED { return nil }
            guard status >= 0, let result = px_parser_result(parser)?.pointee else {
                throw PlistError(position: nil, message: "out of memory while reading XML")
            }
            let final = status == 1
            let tokens = UnsafeBufferPointer(start: result.tokens, count: result.token_count)
            let text = UnsafeRawBufferPointer(start: result.text, count: result.text_length)
            let consumed = try builder.consume(tokens: tokens, text: text, final: final)
            px_parser_discard(parser, consumed)
            if final { break }
        }
        guard let root = builder.root, builder.finished else {
            throw PlistError(position: nil, message: "unexpected end of document")
        }
        return root
    }

    private static func parseWithExpat(_ bytes: UnsafeRawBufferPointer, into builder: inout Builder) throws(PlistError) -> PlistValue {
        guard let parser = px_parser_create() else {
            throw PlistError(position: nil, message: "cannot create an XML parser (out of memory)")
        }
        defer { px_parser_free(parser) }
        var offset = 0
        repeat {
            let n = min(pieceSize, bytes.count - offset)
            let final = offset + n >= bytes.count
            let base = bytes.baseAddress.map { UnsafeRawPointer($0 + offset).assumingMemoryBound(to: CChar.self) }
            let status = px_parser_feed(parser, base, n, final ? 1 : 0)
            offset += n
            guard let result = px_parser_result(parser)?.pointee else { break }
            // Tokens before a failure are still consumed: a plist error there is reported first
            // only when it comes earlier in the document than expat's.
            let tokens = UnsafeBufferPointer(start: result.tokens, count: result.token_count)
            let text = UnsafeRawBufferPointer(start: result.text, count: result.text_length)
            if status != 0 {
                let message = withUnsafeBytes(of: result.error_message) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                let position = result.error_line > 0
                    ? SourcePosition.text(line: Int(result.error_line), column: Int(result.error_column))
                    : textPosition(ofOffset: Int(clamping: result.error_offset), in: bytes)
                // expat calls a document cut short "no element found" (or worse, when the cut
                // falls inside a tag); at the end of the input, say what is left open instead.
                if final, isAtEnd(position, of: bytes), (try? builder.consume(tokens: tokens, text: text, final: false)) != nil {
                    throw PlistError(position: textPosition(ofOffset: bytes.count, in: bytes), message: builder.truncationMessage)
                }
                throw PlistError(position: position, message: message.isEmpty ? "malformed XML" : message)
            }
            let consumed = try builder.consume(tokens: tokens, text: text, final: final)
            px_parser_discard(parser, consumed)
            if final { break }
        } while true
        guard let root = builder.root, builder.finished else {
            throw PlistError(position: nil, message: "unexpected end of document")
        }
        return root
    }

    /// True when `position` is at or after the input's last non-whitespace byte.
    private static func isAtEnd(_ position: SourcePosition, of bytes: UnsafeRawBufferPointer) -> Bool {
        var last = bytes.count
        while last > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[last - 1]) { last -= 1 }
        guard case .text(let line, let column) = position,
              case .text(let endLine, let endColumn) = textPosition(ofOffset: max(last - 1, 0), in: bytes) else { return false }
        return (line, column) >= (endLine, endColumn)
    }

    /// Line and column (1-based, columns in characters, as expat counts) of byte `offset`:
    /// counted only for a position that is reported, never for every token.
    static func textPosition(ofOffset offset: Int, in bytes: UnsafeRawBufferPointer) -> SourcePosition {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        if bytes.count >= 2, let bigEndian = utf16ByteOrder(bytes) {
            var index = 0
            while index + 1 < end {
                let unit = bigEndian ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
                                     : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])
                if unit == 0x0A {
                    line += 1
                    column = 1
                } else if !(0xDC00...0xDFFF).contains(unit) {  // not a surrogate pair's second half
                    column += 1
                }
                index += 2
            }
            return .text(line: line, column: column)
        }
        for index in 0..<end {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte
                column += 1
            }
        }
        return .text(line: line, column: column)
    }

    /// For UTF-16 input (a byte-order mark, or `<` as two bytes), whether it is big-endian;
    /// nil for any other encoding. The same test the shim makes.
    private static func utf16ByteOrder(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        switch (bytes[0], bytes[1]) {
        case (0xFE, 0xFF), (0x00, UInt8(ascii: "<")): true
        case (0xFF, 0xFE), (UInt8(ascii: "<"), 0x00): false
        default: nil
        }
    }

    /// Places are byte offsets of the input (a token's `byte_offset`), turned into line and
    /// column only when an error reports one.
    private struct Frame {
        /// Where the container's start tag is.
        var start: Int
        var isDictionary: Bool
        var array: [PlistValue] = []
        var dictionary: OrderedDictionary<String, PlistValue> = [:]
        /// Where this dictionary's keys start in the builder's `keyPositions`.
        var keyPositionsBase = 0
        var pendingKey: String?
        var pendingKeyPosition = 0
        /// Recording ranges only: the container's key-path components, the offset of its
        /// start tag's `<`, and the pending key's element range.
        var path: [String] = []
        var elementStart = 0
        var startTagEnd = 0
        var pendingKeyRange: Range<Int>?
    }

    /// A leaf element whose tokens have not all arrived yet.
    private struct NeedMoreTokens: Error {}

    private struct Builder {
        /// The current piece's tokens and text (valid during one `consume` call only).
        var tokens = UnsafeBufferPointer<px_token>(start: nil, count: 0)
        var text = UnsafeRawBufferPointer(start: nil, count: 0)
        var stack: [Frame] = []
        /// Where each key of the open dictionaries is, parallel to their `dictionary`s, to
        /// name both places of a duplicate: one array for all (one per dictionary was an
        /// allocation per `<dict>`).
        var keyPositions: [Int] = []
        var root: PlistValue?
        var sawRoot = false
        var finished = false
        /// Non-nil only for `readRecordingRanges`: node ranges by key-path components.
        var ranges: [[String]: XMLNodeRange]?
        /// Recording only: restricts it to the nodes around one path (see `readRecordingRanges`).
        var focus: [String]?
        /// The whole input: positions of errors, and (recording) each start tag's `<`.
        var input = UnsafeRawBufferPointer(start: nil, count: 0)

        /// What a document that ends too early leaves open: the innermost container, or the
        /// `<plist>` element itself.
        var truncationMessage: String {
            guard let open = stack.last else {
                return "the document ends before </plist> (truncated?)"
            }
            let name = open.isDictionary ? "dict" : "array"
            return "the document ends inside the <\(name)> at \(textPosition(open.start)) (truncated?)"
        }

        /// The offset of the `<` that opens the tag ending at token `index`. Invariant: a
        /// tag holds no `<` after its own (XML forbids `<` in attribute values).
        func tagStart(_ index: Int) -> Int {
            var i = min(Int(tokens[index].byte_offset), input.count)
            while i > 0 {
                i -= 1
                if input[i] == UInt8(ascii: "<") { return i }
            }
            return 0
        }

        /// Key-path components of the next value delivered into the current container.
        func childPath() -> [String] {
            guard let top = stack.last else { return [] }
            return top.path + [top.isDictionary ? (top.pendingKey ?? "") : String(top.array.count)]
        }

        /// Records a value's range (and its pending key's) before it is delivered.
        mutating func record(_ path: [String], element: Range<Int>, closingTag: Int?) {
            if let focus {
                let isAncestorOrSelf = path.count <= focus.count && focus.starts(with: path)
                let isSibling = path.count == focus.count && path.dropLast().elementsEqual(focus.dropLast())
                guard isAncestorOrSelf || isSibling else { return }
            }
            let key = stack.last.flatMap { $0.isDictionary ? $0.pendingKeyRange : nil }
            ranges?[path] = XMLNodeRange(element: element, key: key, closingTag: closingTag)
        }

        /// The value a closed container stands for. A dictionary whose only key is `CF$UID`
        /// with a non-negative integer is a UID, as Apple's writer spells one in XML.
        static func container(_ frame: Frame) -> PlistValue {
            guard frame.isDictionary else { return .array(frame.array) }
            if frame.dictionary.count == 1, case .integer(let i)? = frame.dictionary["CF$UID"], let u = i.uint64Value {
                return .uid(u)
            }
            return .dictionary(frame.dictionary)
        }

        /// The byte offset of token `index`.
        func position(_ index: Int) -> Int {
            Int(tokens[index].byte_offset)
        }

        func textPosition(_ offset: Int) -> SourcePosition {
            XMLPlistReader.textPosition(ofOffset: offset, in: input)
        }

        func fail(_ index: Int, _ message: String) -> PlistError {
            fail(at: position(index), message)
        }

        func fail(at offset: Int, _ message: String, code: PlistError.Code? = nil) -> PlistError {
            PlistError(position: textPosition(offset), message: message, code: code)
        }

        func bytes(_ index: Int) -> UnsafeRawBufferPointer {
            let t = tokens[index]
            let start = Int(t.text_offset)
            return UnsafeRawBufferPointer(rebasing: text[start..<(start + Int(t.text_length))])
        }

        func string(_ index: Int) -> String {
            String(decoding: bytes(index), as: UTF8.self)
        }

        func tagName(_ index: Int) -> String {
            switch px_tag(UInt32(tokens[index].tag)) {
            case PX_TAG_PLIST: "plist"
            case PX_TAG_DICT: "dict"
            case PX_TAG_ARRAY: "array"
            case PX_TAG_KEY: "key"
            case PX_TAG_STRING: "string"
            case PX_TAG_INTEGER: "integer"
            case PX_TAG_REAL: "real"
            case PX_TAG_DATE: "date"
            case PX_TAG_DATA: "data"
            case PX_TAG_TRUE: "true"
            case PX_TAG_FALSE: "false"
            default: tokens[index].kind == UInt8(PX_TOKEN_START.rawValue) ? string(index) : "?"
            }
        }

        /// The text of the leaf element starting at `index` (nil if empty) and the index of its
        /// end tag. Throws `NeedMoreTokens` when the piece ends inside the element.
        func leafText(_ index: Int, final: Bool) throws(LeafError) -> (text: Int?, end: Int) {
            var i = index + 1
            var textIndex: Int?
            if i < tokens.count, tokens[i].kind == UInt8(PX_TOKEN_TEXT.rawValue) {
                textIndex = i
                i += 1
            }
            guard i < tokens.count else {
                if final { throw .plist(fail(index, "<\(tagName(index))> is not closed")) }
                throw .needMore
            }
            guard tokens[i].kind == UInt8(PX_TOKEN_END.rawValue) else {
                throw .plist(fail(i, "<\(tagName(i))> is not allowed inside <\(tagName(index))>"))
            }
            return (textIndex, i)
        }

        enum LeafError: Error {
            case needMore
            case plist(PlistError)
        }

        /// Consumes as many tokens of this piece as can be handled now; returns how many.
        mutating func consume(tokens: UnsafeBufferPointer<px_token>, text: UnsafeRawBufferPointer, final: Bool) throws(PlistError) -> Int {
            self.tokens = tokens
            self.text = text
            var i = 0
            if !sawRoot {
                guard let first = tokens.first else {
                    if final { throw PlistError(position: .text(line: 1, column: 1), message: "no XML element found") }
                    return 0
                }
                guard first.kind == UInt8(PX_TOKEN_START.rawValue), first.tag == UInt8(PX_TAG_PLIST.rawValue) else {
                    throw fail(0, "root element is <\(tagName(0))>, expected <plist>")
                }
                sawRoot = true
                i = 1
            }
            while i < tokens.count, !finished {
                let token = tokens[i]
                switch px_token_kind(UInt32(token.kind)) {
                case PX_TOKEN_TEXT:
                    let snippet = String(string(i).trimmingWhitespace.prefix(40))
                    let container = stack.last.map { $0.isDictionary ? "<dict>" : "<array>" } ?? "<plist>"
                    throw fail(i, "unexpected text \"\(snippet)\" in \(container)")
                case PX_TOKEN_END:
                    guard let frame = stack.popLast() else {
                        // The end of <plist>: expat guarantees it matches and nothing follows.
                        guard root != nil else { throw fail(i, "<plist> holds no value") }
                        finished = true
                        return tokens.count
                    }
                    if let key = frame.pendingKey {
                        throw fail(at: frame.pendingKeyPosition, "key \"\(key)\" has no value")
                    }
                    if frame.isDictionary { keyPositions.removeSubrange(frame.keyPositionsBase...) }
                    if ranges != nil {
                        let end = Int(token.byte_offset)
                        // An empty element (`<dict/>`) ends where it starts: no closing tag to insert before.
                        let closing = frame.startTagEnd == end ? nil : tagStart(i)
                        record(frame.path, element: frame.elementStart..<end, closingTag: closing)
                    }
                    try deliver(Self.container(frame), at: frame.start, tagToken: nil)
                    i += 1
                default:
                    // nil: the piece ends inside a leaf element; resume from it with the next piece.
                    guard let next = try startElement(i, final: final) else { return i }
                    i = next
                }
            }
            return i
        }

        /// Handles the start tag at `i`; returns the index of the next token to look at, or nil
        /// when the element's tokens are not all in this piece yet.
        mutating func startElement(_ i: Int, final: Bool) throws(PlistError) -> Int? {
            let tag = px_tag(UInt32(tokens[i].tag))
            func leaf() throws(PlistError) -> (text: Int?, end: Int)? {
                do { return try leafText(i, final: final) } catch {
                    if case .plist(let e) = error { throw e }
                    return nil
                }
            }
            switch tag {
            case PX_TAG_DICT, PX_TAG_ARRAY:
                if stack.isEmpty, root != nil {
                    throw fail(i, "<plist> holds more than one value")
                }
                // Fields read in place: copying the whole frame (`stack.last`) retained its
                // arrays and dictionary at every tag.
                if let top = stack.indices.last, stack[top].isDictionary, stack[top].pendingKey == nil {
                    throw fail(i, "<\(tagName(i))> in a <dict> has no <key> before it")
                }
                // Invariant: nesting stays within what every reader (and the value's recursive
                // destruction) handles.
                guard stack.count < PropertyListCoding.maxDepth else {
                    throw fail(i, "containers nested deeper than \(PropertyListCoding.maxDepth) levels")
                }
                var frame = Frame(start: position(i), isDictionary: tag == PX_TAG_DICT)
                frame.keyPositionsBase = keyPositions.count
                if ranges != nil {
                    frame.path = childPath()
                    frame.elementStart = tagStart(i)
                    frame.startTagEnd = Int(tokens[i].byte_offset)
                }
                stack.append(frame)
                return i + 1
            case PX_TAG_KEY:
                guard let top = stack.indices.last, stack[top].isDictionary else {
                    throw fail(i, "<key> outside a <dict>")
                }
                if let pending = stack[top].pendingKey {
                    throw fail(at: stack[top].pendingKeyPosition, "key \"\(pending)\" has no value (another <key> follows)")
                }
                guard let (textIndex, end) = try leaf() else { return nil }
                stack[stack.count - 1].pendingKey = textIndex.map { string($0) } ?? ""
                stack[stack.count - 1].pendingKeyPosition = position(i)
                if ranges != nil {
                    stack[stack.count - 1].pendingKeyRange = tagStart(i)..<Int(tokens[end].byte_offset)
                }
                return end + 1
            case PX_TAG_TRUE, PX_TAG_FALSE:
                guard let (textIndex, end) = try leaf() else { return nil }
                if let textIndex {
                    throw fail(textIndex, "<\(tagName(i))/> must be empty")
                }
                if ranges != nil { record(childPath(), element: tagStart(i)..<Int(tokens[end].byte_offset), closingTag: nil) }
                try deliver(.bool(tag == PX_TAG_TRUE), at: position(i), tagToken: i)
                return end + 1
            case PX_TAG_STRING, PX_TAG_INTEGER, PX_TAG_REAL, PX_TAG_DATE, PX_TAG_DATA:
                guard let (textIndex, end) = try leaf() else { return nil }
                if ranges != nil { record(childPath(), element: tagStart(i)..<Int(tokens[end].byte_offset), closingTag: nil) }
                try deliver(try leafValue(tag, start: i, text: textIndex), at: position(i), tagToken: i)
                return end + 1
            case PX_TAG_PLIST:
                throw fail(i, "<plist> nested inside a property list")
            default:
                throw fail(i, "unknown element <\(tagName(i))> (not in Apple's plist DTD)")
            }
        }

        func leafValue(_ tag: px_tag, start: Int, text textIndex: Int?) throws(PlistError) -> PlistValue {
            let raw = textIndex.map { bytes($0) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
            switch tag {
            case PX_TAG_STRING:
                return .string(textIndex.map { string($0) } ?? "")
            case PX_TAG_INTEGER:
                let trimmed = raw.trimmingASCIIWhitespace
                guard let value = PlistInteger(ascii: trimmed) else {
                    let shown = String(decoding: trimmed.prefix(40), as: UTF8.self)
                    if PlistInteger.looksNumeric(trimmed) {
                        throw fail(start, "integer \(shown) is out of range (\(Int64.min) ... \(UInt64.max))")
                    }
                    throw fail(start, "\"\(shown)\" is not an integer")
                }
                return .integer(value)
            case PX_TAG_REAL:
                let trimmed = raw.trimmingASCIIWhitespace
                guard let value = PlistReal.parse(trimmed) else {
                    throw fail(start, "\"\(String(decoding: trimmed.prefix(40), as: UTF8.self))\" is not a real number")
                }
                return .real(value)
            case PX_TAG_DATE:
                let trimmed = raw.trimmingASCIIWhitespace
                guard let date = PlistDate(iso8601: trimmed) else {
                    throw fail(start, "\"\(String(decoding: trimmed.prefix(40), as: UTF8.self))\" is not a valid date (expected YYYY-MM-DDTHH:MM:SSZ)")
                }
                return .date(date)
            default:
                do {
                    return .data(try Base64.decode(raw))
                } catch {
                    throw fail(start, "<data> is not valid base64: \(error.reason) at character \(error.index)")
                }
            }
        }

        mutating func deliver(_ value: PlistValue, at position: Int, tagToken: Int?) throws(PlistError) {
            guard !stack.isEmpty else {
                if root != nil { throw fail(at: position, "<plist> holds more than one value") }
                root = value
                return
            }
            let top = stack.count - 1
            if !stack[top].isDictionary {
                stack[top].array.append(value)
                return
            }
            guard let key = stack[top].pendingKey else {
                throw fail(at: position, "<\(tagToken.map { tagName($0) } ?? "value")> in a <dict> has no <key> before it")
            }
            let keyPosition = stack[top].pendingKeyPosition
            stack[top].pendingKey = nil
            // A duplicate overwrites before it is reported; the error discards the dictionary.
            if stack[top].dictionary.updateValue(value, forKey: key) != nil {
                let existing = stack[top].dictionary.index(forKey: key) ?? 0
                let first = textPosition(keyPositions[stack[top].keyPositionsBase + existing])
                throw fail(at: keyPosition, "duplicate key \"\(key)\" (first defined at \(first))", code: .duplicateKey)
            }
            keyPositions.append(keyPosition)
        }
    }
}

private extension String {
    var trimmingWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[start...end]
    }
}

extension UnsafeRawBufferPointer {
    var trimmingASCIIWhitespace: Slice<UnsafeRawBufferPointer> {
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }
        var start = startIndex
        var end = endIndex
        while start < end, isSpace(self[start]) { start += 1 }
        while end > start, isSpace(self[end - 1]) { end -= 1 }
        return self[start..<end]
    }
}
