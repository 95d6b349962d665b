internal import CLibYAML

// Every libyaml call devkit makes goes through this file (STYLE.md §3): the one place that
// knows libyaml's types and how its errors are reported. Callers see `YAMLEvent`s and
// `YAMLSyntaxError`s only.
//
// libyaml's event parser (`yaml_parser_parse`) is used, not its document loader
// (`yaml_parser_load`): the loader recurses once per nesting level, so a file of a million
// `[` would overflow the stack, while the parser keeps its states on the heap. `YAMLDocument`
// builds the nodes from the events with a bounded depth.

/// libyaml's parser (`yaml_parser_t`) over a copy of the text, giving one event at a time.
final class YAMLEventReader {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    /// The text the parser reads; libyaml keeps a pointer into it for the parser's life.
    private let input: UnsafeMutableBufferPointer<UInt8>
    /// Bytes of text in `input` (it has at least one, so that the pointer is never nil).
    private let length: Int

    /// A reader over `text` (UTF-8).
    init(_ text: [UInt8]) throws(YAMLSyntaxError) {
        parser = .allocate(capacity: 1)
        input = .allocate(capacity: text.count + 1)
        _ = input.initialize(from: text + [0])
        length = text.count
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            input.deallocate()
            throw YAMLSyntaxError(line: 1, column: 1, message: "libyaml could not start (out of memory)")
        }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, text.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    /// The next event (`yaml_parser_parse`); after `.streamEnd`, `.streamEnd` again.
    func next() throws(YAMLSyntaxError) -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw syntaxError() }
        defer { yaml_event_delete(&event) }
        let line = Int(clamping: event.start_mark.line) + 1
        let column = Int(clamping: event.start_mark.column) + 1
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            return .documentStart(line: line, column: column)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let value = scalar.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self) } ?? ""
            return .scalar(value, isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE, anchor: Self.string(scalar.anchor), line: line, column: column)
        case YAML_SEQUENCE_START_EVENT:
            return .sequenceStart(anchor: Self.string(event.data.sequence_start.anchor), line: line, column: column)
        case YAML_MAPPING_START_EVENT:
            return .mappingStart(anchor: Self.string(event.data.mapping_start.anchor), line: line, column: column)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            return .collectionEnd
        case YAML_ALIAS_EVENT:
            return .alias(Self.string(event.data.alias.anchor) ?? "", line: line, column: column)
        case YAML_STREAM_END_EVENT, YAML_NO_EVENT:
            return .streamEnd
        default:
            // Stream start and document end carry nothing a configuration needs.
            return .other
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafePointer($0)) }
    }

    /// The parser's error (`problem`, `context` and their marks) as one line. Reader errors
    /// (bad UTF-8) have only a byte offset, which is turned into a line and column here.
    private func syntaxError() -> YAMLSyntaxError {
        let state = parser.pointee
        var message = state.problem.map { String(cString: $0) } ?? "libyaml failed"
        if state.error == YAML_MEMORY_ERROR { message = "out of memory" }
        if state.error == YAML_READER_ERROR {
            let (line, column) = position(ofByte: Int(clamping: state.problem_offset))
            if state.problem_value >= 0 { message += " (byte 0x\(Self.hex(state.problem_value)))" }
            return YAMLSyntaxError(line: line, column: column, message: message)
        }
        let line = Int(clamping: state.problem_mark.line) + 1, column = Int(clamping: state.problem_mark.column) + 1
        if let context = state.context {
            // The context's mark is where the construct began (an unclosed `[`), when elsewhere.
            let mark = (Int(clamping: state.context_mark.line) + 1, Int(clamping: state.context_mark.column) + 1)
            message += " (\(String(cString: context))\(mark == (line, column) ? "" : " at \(mark.0):\(mark.1)"))"
        }
        return YAMLSyntaxError(line: line, column: column, message: message)
    }

    private static func hex(_ value: Int32) -> String {
        let digits = String(value, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// 1-based line and column (in bytes) of byte `offset` of the input.
    private func position(ofByte offset: Int) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for index in 0..<min(offset, length) where input[index] == 0x0a {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }
}

