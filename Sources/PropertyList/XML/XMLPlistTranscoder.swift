internal import PlistXMLShim

/// Streams an XML property list into a `PlistEventSink` (the JSON or XML writer) without
/// building its `PlistValue` tree: each leaf goes from the direct tokenizer's text to the
/// output, and all the stream keeps is one entry per open container and the open
/// dictionaries' keys. Converting a number- or nesting-heavy XML file was mostly making and
/// faulting in the tree (300,000 small values, 9,000 page faults against the tokenizer's 200).
///
/// As `BinaryPlistTranscoder` does for binary files, it succeeds only where `XMLPlistReader`
/// reads the document, and then its events are exactly the tree's, in the tree's order.
/// Everything else makes it give up (false) without saying why, and the caller converts
/// through the tree, whose reader words the error: a document the direct tokenizer leaves to
/// expat, anything outside the plist DTD's shape, a malformed integer, real, date or base64,
/// duplicate keys (found when their dictionary closes), a `CF$UID` key (the tree reads
/// `{CF$UID: n}` as a UID), nesting past `PropertyListCoding.maxDepth`, or a value the sink
/// refuses (strict JSON's dates and data).
struct XMLPlistTranscoder: ~Copyable {
    private struct OpenContainer {
        var isDictionary: Bool
        /// Items (array) or members (dictionary) written so far.
        var count = 0
        /// A dictionary whose last `<key>` still waits for its value.
        var awaitingValue = false
        /// Where this dictionary's keys start in `keys`.
        var keysMark: Int
    }

    private var open: [OpenContainer] = []
    private var keys = DictionaryKeyStack()
    private var sawPlist = false
    private var hasRoot = false
    private var finished = false
    /// The current batch (valid during one `consume` call only).
    private var tokens = UnsafeBufferPointer<px_token>(start: nil, count: 0)
    private var text = UnsafeRawBufferPointer(start: nil, count: 0)

    /// Why the stream stopped; never shown (the tree reader says it properly).
    private struct GaveUp: Error {}

    /// Streams `bytes` into `sink`; false when the tree must do it (see the type's doc). After
    /// false, `sink` holds a partial document and must be thrown away.
    static func transcode<Sink: PlistEventSink & ~Copyable>(_ bytes: UnsafeRawBufferPointer, into sink: inout Sink) -> Bool {
        guard let parser = px_parser_create() else { return false }
        defer { px_parser_free(parser) }
        let base = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
        var stream = XMLPlistTranscoder()
        while true {
            // Negative: out of memory, or a document left to expat (PX_DIRECT_UNSUPPORTED).
            let status = px_parser_tokenize(parser, base, bytes.count, XMLPlistReader.directTokenLimit)
            guard status >= 0, let result = px_parser_result(parser)?.pointee else { return false }
            let final = status == 1
            stream.tokens = UnsafeBufferPointer(start: result.tokens, count: result.token_count)
            stream.text = UnsafeRawBufferPointer(start: result.text, count: result.text_length)
            let consumed: Int
            do { consumed = try stream.consume(final: final, into: &sink) } catch { return false }
            px_parser_discard(parser, consumed)
            if final { return stream.finished }
        }
    }

    /// Writes as many tokens of this batch as can be written now; returns how many.
    private mutating func consume<Sink: PlistEventSink & ~Copyable>(final: Bool, into sink: inout Sink) throws(GaveUp) -> Int {
        var i = 0
        if !sawPlist {
            guard let first = tokens.first else {
                if final { throw GaveUp() }
                return 0
            }
            guard first.kind == UInt8(PX_TOKEN_START.rawValue), first.tag == UInt8(PX_TAG_PLIST.rawValue) else { throw GaveUp() }
            sawPlist = true
            i = 1
        }
        while i < tokens.count, !finished {
            switch px_token_kind(UInt32(tokens[i].kind)) {
            case PX_TOKEN_END:
                try endContainer(into: &sink)
                i += 1
            case PX_TOKEN_START:
                // nil: the batch ends inside the element; it is read again with the next batch.
                guard let next = try startElement(i, final: final, into: &sink) else { return i }
                i = next
            default:
                throw GaveUp()  // text between elements
            }
        }
        return finished ? tokens.count : i
    }

    /// An end tag outside a leaf: a container's, or `</plist>`'s.
    private mutating func endContainer<Sink: PlistEventSink & ~Copyable>(into sink: inout Sink) throws(GaveUp) {
        guard let frame = open.popLast() else {
            guard hasRoot else { throw GaveUp() }
            finished = true
            return
        }
        guard !frame.awaitingValue else { throw GaveUp() }
        let depth = open.count
        if frame.isDictionary {
            if keys.hasDuplicate(from: frame.keysMark, count: frame.count) { throw GaveUp() }
            keys.pop(to: frame.keysMark)
            sink.endDictionary(isEmpty: frame.count == 0, depth: depth)
        } else {
            sink.endArray(isEmpty: frame.count == 0, depth: depth)
        }
        valueWritten()
    }

    /// Writes the element whose start tag is token `i`; returns the index of the next token,
    /// or nil (having written nothing) when the element's tokens are not all in this batch.
    private mutating func startElement<Sink: PlistEventSink & ~Copyable>(_ i: Int, final: Bool, into sink: inout Sink) throws(GaveUp) -> Int? {
        let tag = px_tag(UInt32(tokens[i].tag))
        switch tag {
        case PX_TAG_DICT, PX_TAG_ARRAY:
            guard i + 1 < tokens.count else {
                if final { throw GaveUp() }
                return nil
            }
            guard open.count < PropertyListCoding.maxDepth else { throw GaveUp() }
            try announceValue(into: &sink)
            let isEmpty = tokens[i + 1].kind == UInt8(PX_TOKEN_END.rawValue)
            if tag == PX_TAG_DICT {
                sink.beginDictionary(isEmpty: isEmpty, depth: open.count)
            } else {
                sink.beginArray(isEmpty: isEmpty, depth: open.count)
            }
            open.append(OpenContainer(isDictionary: tag == PX_TAG_DICT, keysMark: keys.mark))
            return i + 1
        case PX_TAG_KEY:
            guard let top = open.indices.last, open[top].isDictionary, !open[top].awaitingValue else { throw GaveUp() }
            guard let (content, end) = try leaf(i, final: final) else { return nil }
            let key = content.assumingMemoryBound(to: UInt8.self)
            if key.elementsEqual("CF$UID".utf8) { throw GaveUp() }
            keys.append(key)
            do { try sink.dictionaryKey(key, index: open[top].count, depth: top) } catch { throw GaveUp() }
            open[top].awaitingValue = true
            return end + 1
        case PX_TAG_TRUE, PX_TAG_FALSE, PX_TAG_STRING, PX_TAG_INTEGER, PX_TAG_REAL, PX_TAG_DATE, PX_TAG_DATA:
            guard let (content, end) = try leaf(i, final: final) else { return nil }
            try announceValue(into: &sink)
            try writeLeaf(tag, content, into: &sink)
            valueWritten()
            return end + 1
        default:
            throw GaveUp()  // a nested <plist>, or an element outside the DTD
        }
    }

    /// Leaf `tag`'s value from its text `content`, parsed as `XMLPlistReader` parses it.
    private func writeLeaf<Sink: PlistEventSink & ~Copyable>(_ tag: px_tag, _ content: UnsafeRawBufferPointer, into sink: inout Sink) throws(GaveUp) {
        let depth = open.count
        let trimmed = content.trimmingASCIIWhitespace
        do {
            switch tag {
            case PX_TAG_STRING:
                try sink.string(content.assumingMemoryBound(to: UInt8.self), depth: depth)
            case PX_TAG_INTEGER:
                guard let value = PlistInteger(ascii: trimmed) else { throw GaveUp() }
                try sink.scalar(.integer(value), depth: depth)
            case PX_TAG_REAL:
                guard let value = PlistReal.parse(trimmed) else { throw GaveUp() }
                try sink.scalar(.real(value), depth: depth)
            case PX_TAG_DATE:
                guard let value = PlistDate(iso8601: trimmed) else { throw GaveUp() }
                try sink.scalar(.date(value), depth: depth)
            case PX_TAG_DATA:
                let written: Bool
                do { written = try sink.base64Data(content, depth: depth) } catch { throw GaveUp() }
                guard written else { throw GaveUp() }
            default:
                // <true/> and <false/> must be empty.
                guard content.isEmpty else { throw GaveUp() }
                try sink.scalar(.bool(tag == PX_TAG_TRUE), depth: depth)
            }
        } catch {
            throw GaveUp()
        }
    }

    /// The text of the leaf element starting at token `i` (empty when it has none) and the
    /// index of its end tag; nil when the batch ends inside the element.
    private func leaf(_ i: Int, final: Bool) throws(GaveUp) -> (UnsafeRawBufferPointer, Int)? {
        var next = i + 1
        var content = UnsafeRawBufferPointer(start: nil, count: 0)
        if next < tokens.count, tokens[next].kind == UInt8(PX_TOKEN_TEXT.rawValue) {
            let start = Int(tokens[next].text_offset)
            content = UnsafeRawBufferPointer(rebasing: text[start..<(start + Int(tokens[next].text_length))])
            next += 1
        }
        guard next < tokens.count else {
            if final { throw GaveUp() }
            return nil
        }
        guard tokens[next].kind == UInt8(PX_TOKEN_END.rawValue) else { throw GaveUp() }
        return (content, next)
    }

    /// The checks before a value and, in an array, its announcement.
    private mutating func announceValue<Sink: PlistEventSink & ~Copyable>(into sink: inout Sink) throws(GaveUp) {
        guard let top = open.indices.last else {
            if hasRoot { throw GaveUp() }  // <plist> holds one value
            return
        }
        if open[top].isDictionary {
            guard open[top].awaitingValue else { throw GaveUp() }
        } else {
            sink.arrayItem(open[top].count, depth: top)
        }
    }

    private mutating func valueWritten() {
        guard let top = open.indices.last else {
            hasRoot = true
            return
        }
        open[top].count += 1
        open[top].awaitingValue = false
    }
}
