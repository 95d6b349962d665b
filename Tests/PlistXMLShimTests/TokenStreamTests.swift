import PlistXMLShim
import Testing

/// One token as the tests read it: kind, tag, text, place (byte offset).
struct Token: Equatable, CustomStringConvertible {
    var kind: Int
    var tag: Int
    var text: String
    var offset: Int
    var description: String { "\(kind)/\(tag)/\(text)@\(offset)" }
}

/// The tokens of `xml`, fed in pieces of `chunk` bytes and discarded as they are read, or the
/// parser's error (line, column, message).
func tokenize(_ xml: String, chunk: Int = .max) -> (tokens: [Token], error: (line: Int, column: Int, message: String)?) {
    tokenize(bytes: Array(xml.utf8), chunk: chunk)
}

func tokenize(bytes: [UInt8], chunk: Int = .max) -> (tokens: [Token], error: (line: Int, column: Int, message: String)?) {
    guard let parser = px_parser_create() else { return ([], (0, 0, "out of memory")) }
    defer { px_parser_free(parser) }
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
            tokens.append(Token(kind: Int(token.kind), tag: Int(token.tag), text: text, offset: Int(token.byte_offset)))
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
        // "<key>" on line 4 after a tab: the text starts just after its '>'.
        let keyStart = Array(document.utf8).firstRange(of: Array("<key>Name".utf8))!.lowerBound
        #expect(structural[3].offset == keyStart + 5)
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

    /// A start tag stands at its `>` (the `/` of `/>`), an end tag just after its `>`, a text
    /// at its first byte.
    @Test func tokensStandWhereTheirTagsClose() {
        let (tokens, error) = tokenize("<plist>\n <array><string>é\u{e9}x</string><true/></array></plist>")
        #expect(error == nil)
        #expect(tokens.map(\.description) == [
            "1/1/@6", "1/3/@15", "1/5/@23", "3/5/ééx@24", "2/5/@38", "1/10/@43", "2/10/@45", "2/3/@53", "2/1/@61",
        ])
    }

    /// Whatever the piece size, every tag's place is the same: constructs cut by a piece's end
    /// are held back and handed to expat whole.
    @Test(arguments: [1, 3, 16])
    func placesDoNotDependOnThePieceSize(chunk: Int) {
        let xml = "<?xml version=\"1.0\"?>\n<!-- a comment\n over lines -->\n<plist version=\"1.0\"><dict>\n"
            + "<key\n>k</key><string a='>'>v\nw</string><key>n</key><data>AA==</data></dict></plist>\n"
        func tags(_ tokens: [Token]) -> [String] { tokens.filter { $0.kind != text }.map(\.description) }
        let whole = tokenize(xml)
        let pieces = tokenize(xml, chunk: chunk)
        #expect(whole.error == nil && pieces.error == nil)
        #expect(tags(pieces.tokens) == tags(whole.tokens))
        #expect(tags(whole.tokens).count == 12)
    }

    /// Every plist names Apple's external DTD, which is never read: a reference to any entity
    /// but the predefined five fails, naming it.
    @Test func undeclaredEntitiesAreRefused() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist><string>a &nbsp; b</string></plist>
            """
        let error = tokenize(xml).error
        #expect(error?.message == "undefined entity 'nbsp'")
    }

    /// UTF-16 text arrives as UTF-8; places stay byte offsets of the input, a tag's `>` (or
    /// `/`) one two-byte unit before its end.
    @Test(arguments: [false, true])
    func utf16DocumentsGiveUTF8TextAndByteOffsets(bigEndian: Bool) {
        let xml = "<plist>\n<array><string>caf\u{e9}</string><true/></array></plist>"
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in xml.utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let (tokens, error) = tokenize(bytes: bytes)
        #expect(error == nil)
        let utf8 = tokenize(xml).tokens
        // Each UTF-8 offset o (one byte per character here but é) is 2 + 2·characters before it.
        func utf16Offset(_ utf8Offset: Int) -> Int { 2 + 2 * String(decoding: Array(xml.utf8)[..<utf8Offset], as: UTF8.self).utf16.count }
        #expect(tokens.filter { $0.kind != text }.map(\.offset) == utf8.filter { $0.kind != text }.map { utf16Offset($0.offset) })
        #expect(tokens.first { $0.kind == text }?.text == "café")
    }
}
