import PlistXMLShim
import Testing

/// One token as the tests read it: kind, tag, text, line.
struct Token: Equatable, CustomStringConvertible {
    var kind: Int
    var tag: Int
    var text: String
    var line: Int
    var description: String { "\(kind)/\(tag)/\(text)@\(line)" }
}

/// The tokens of `xml`, fed in pieces of `chunk` bytes and discarded as they are read, or the
/// parser's error (line, column, message).
func tokenize(_ xml: String, chunk: Int = .max) -> (tokens: [Token], error: (line: Int, column: Int, message: String)?) {
    guard let parser = px_parser_create() else { return ([], (0, 0, "out of memory")) }
    defer { px_parser_free(parser) }
    let bytes = Array(xml.utf8)
    var tokens: [Token] = []
    var start = 0
    repeat {
        let end = min(bytes.count, start + min(chunk, bytes.count - start))
        let status = bytes[start..<end].withUnsafeBufferPointer { piece in
            piece.withMemoryRebound(to: CChar.self) { px_parser_feed(parser, $0.baseAddress, $0.count, end == bytes.count ? 1 : 0) }
        }
        let result = px_parser_result(parser)!.pointee
        for index in 0..<result.token_count {
            let token = result.tokens[index]
            var text = ""
            if token.text_length > 0, let base = result.text {
                text = String(decoding: UnsafeRawBufferPointer(start: base + Int(token.text_offset), count: Int(token.text_length)), as: UTF8.self)
            }
            tokens.append(Token(kind: Int(token.kind), tag: Int(token.tag), text: text, line: Int(token.line)))
        }
        px_parser_discard(parser, result.token_count)
        if status != 0 {
            let message = withUnsafeBytes(of: result.error_message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return (tokens, (Int(result.error_line), Int(result.error_column), message))
        }
        start = end
    } while start < bytes.count
    return (tokens, nil)
}

let start = Int(PX_TOKEN_START.rawValue), end = Int(PX_TOKEN_END.rawValue), text = Int(PX_TOKEN_TEXT.rawValue)

@Suite struct TokenStreamTests {
    let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>Name</key>
        \t<string>caf&#233; &amp; <![CDATA[<bar>]]></string>
        \t<true/>
        </dict>
        </plist>
        """

    @Test func tokensOfADocument() throws {
        let (tokens, error) = tokenize(document)
        #expect(error == nil)
        let structural = tokens.filter { $0.kind != text || !$0.text.allSatisfy(\.isWhitespace) }
        // Text tokens carry the tag of the element they are in.
        let tags = structural.map { "\($0.kind):\($0.tag)" }
        let plist = Int(PX_TAG_PLIST.rawValue), dict = Int(PX_TAG_DICT.rawValue), key = Int(PX_TAG_KEY.rawValue)
        let string = Int(PX_TAG_STRING.rawValue), yes = Int(PX_TAG_TRUE.rawValue)
        #expect(tags == ["\(start):\(plist)", "\(start):\(dict)", "\(start):\(key)", "\(text):\(key)", "\(end):\(key)",
                         "\(start):\(string)", "\(text):\(string)", "\(end):\(string)", "\(start):\(yes)", "\(end):\(yes)",
                         "\(end):\(dict)", "\(end):\(plist)"])
        // Entities decoded, CDATA included, pieces of text merged into one token.
        #expect(structural[6].text == "café & <bar>")
        #expect(structural[3].text == "Name")
        #expect(structural[3].line == 4)
    }

    /// Fed in pieces (and discarded between them), a text may arrive as several text tokens;
    /// joined up, the stream is the same as the whole document's.
    @Test(arguments: [1, 2, 7, 64])
    func piecesGiveTheSameTokens(chunk: Int) {
        func joined(_ tokens: [Token]) -> [String] {
            var out: [Token] = []
            for token in tokens {
                if token.kind == text, let last = out.last, last.kind == text { out[out.count - 1].text += token.text } else { out.append(token) }
            }
            return out.map { "\($0.kind)/\($0.tag)/\($0.text)" }
        }
        let whole = tokenize(document)
        let pieces = tokenize(document, chunk: chunk)
        #expect(pieces.error == nil)
        #expect(joined(pieces.tokens) == joined(whole.tokens))
    }

    @Test func malformedDocumentFailsWithAPosition() {
        let (_, error) = tokenize("<plist>\n<dict>\n<key>a</string>\n</plist>")
        #expect(error != nil)
        #expect(error?.line == 3)
        #expect(error?.message.isEmpty == false)
    }

    @Test func entityDeclarationsAreRefused() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY boom "xxxxxxxxxx">]>
            <plist><string>&boom;</string></plist>
            """
        #expect(tokenize(xml).error != nil)
    }

    @Test func unknownElementsAreTaggedOther() {
        let (tokens, error) = tokenize("<plist><blob/></plist>")
        #expect(error == nil)
        let blob = tokens.first { $0.kind == start && $0.text == "blob" }
        #expect(blob?.tag == Int(PX_TAG_OTHER.rawValue))
    }
}
