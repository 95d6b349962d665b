import PlistXMLShim

/// One token with its text, as both tokenizers must give it.
struct Token: Equatable {
    var kind: UInt8
    var tag: UInt8
    var offset: UInt64
    var text: [UInt8]
}

/// Appends the parser's tokens to `tokens` and discards them (all but a trailing text when
/// `keepTrailingText`, as the reader keeps an unfinished leaf).
func drain(_ parser: OpaquePointer, into tokens: inout [Token], keepTrailingText: Bool) {
    let result = px_parser_result(parser)!.pointee
    var take = result.token_count
    if keepTrailingText, take > 0, result.tokens[take - 1].kind == UInt8(PX_TOKEN_TEXT.rawValue) { take -= 1 }
    for index in 0..<take {
        let t = result.tokens[index]
        let text = t.text_length == 0 ? [] : Array(UnsafeRawBufferPointer(start: result.text! + Int(t.text_offset), count: Int(t.text_length)))
        tokens.append(Token(kind: t.kind, tag: t.tag, offset: t.byte_offset, text: text))
    }
    px_parser_discard(parser, take)
}

/// libFuzzer entry point; built with -parse-as-library, so no top-level code here.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawPointer(data).assumingMemoryBound(to: CChar.self)
    // A small limit exercises the hand-over between calls too.
    let limit = size % 7 + 1
    guard let direct = px_parser_create() else { return 0 }
    defer { px_parser_free(direct) }
    var directTokens: [Token] = []
    while true {
        let status = px_parser_tokenize(direct, bytes, size, limit)
        if status == PX_DIRECT_UNSUPPORTED || status < 0 { return 0 }
        drain(direct, into: &directTokens, keepTrailingText: status == 0)
        if status == 1 { break }
    }
    guard let expat = px_parser_create() else { return 0 }
    defer { px_parser_free(expat) }
    let status = px_parser_feed(expat, bytes, size, 1)
    var expatTokens: [Token] = []
    drain(expat, into: &expatTokens, keepTrailingText: false)
    if status != 0 {
        let message = withUnsafeBytes(of: px_parser_result(expat)!.pointee.error_message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        fatalError("the direct tokenizer accepted a document expat refuses: \(message)")
    }
    if directTokens != expatTokens {
        let first = Array(zip(directTokens, expatTokens)).firstIndex { $0 != $1 } ?? min(directTokens.count, expatTokens.count)
        fatalError("tokens differ from token \(first) on: direct \(directTokens.count), expat \(expatTokens.count)")
    }
    return 0
}
