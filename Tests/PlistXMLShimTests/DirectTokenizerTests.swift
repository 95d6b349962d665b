import DevKitTestSupport
import Foundation
import PlistXMLShim
import Testing

/// The direct tokenizer either leaves a document to expat or gives exactly expat's tokens:
/// kind, tag, text and byte offset of each. Checked on real plists, on hand-made documents
/// with every construct it reads, and on thousands of mutations of them (a wrong acceptance
/// shows as a token difference or as a document expat refuses).
@Suite struct DirectTokenizerTests {
    /// The direct tokenizer's tokens (handed over `limit` at a time, a trailing text kept
    /// like the reader keeps it), or nil when it leaves the document to expat.
    static func tokenizeDirectly(bytes: [UInt8], limit: Int = .max) -> [Token]? {
        guard let parser = px_parser_create() else { return nil }
        defer { px_parser_free(parser) }
        var tokens: [Token] = []
        while true {
            let status = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { px_parser_tokenize(parser, $0.baseAddress, $0.count, limit) }
            }
            if status == PX_DIRECT_UNSUPPORTED { return nil }
            guard status >= 0 else { Issue.record("direct tokenizer failed"); return nil }
            let result = px_parser_result(parser)!.pointee
            var take = result.token_count
            if status == 0, take > 0, Int(result.tokens[take - 1].kind) == text { take -= 1 }
            for index in 0..<take {
                let token = result.tokens[index]
                var string = ""
                if token.text_length > 0, let base = result.text {
                    string = String(decoding: UnsafeRawBufferPointer(start: base + Int(token.text_offset), count: Int(token.text_length)), as: UTF8.self)
                }
                tokens.append(Token(kind: Int(token.kind), tag: Int(token.tag), text: string, offset: Int(token.byte_offset)))
            }
            px_parser_discard(parser, take)
            if status == 1 { return tokens }
        }
    }

    /// Records a difference when the direct tokenizer accepts `bytes` and disagrees with expat;
    /// returns whether it accepted.
    @discardableResult
    static func agree(_ bytes: [UInt8], _ name: String, limit: Int = .max) -> Bool {
        guard let direct = tokenizeDirectly(bytes: bytes, limit: limit) else { return false }
        let expat = tokenize(bytes: bytes)
        #expect(expat.error == nil, "\(name): accepted, but expat says \(expat.error.map { "\($0.line):\($0.column) \($0.message)" } ?? "")")
        if direct != expat.tokens {
            let first = Array(zip(direct, expat.tokens)).firstIndex { $0 != $1 } ?? min(direct.count, expat.tokens.count)
            let directToken = first < direct.count ? direct[first].description : "end"
            let expatToken = first < expat.tokens.count ? expat.tokens[first].description : "end"
            Issue.record("\(name): token \(first) is \(directToken), expat's \(expatToken)")
        }
        return true
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every XML property list of Samples/ and the tests' fixtures.
    static func projectPlists() -> [(String, [UInt8])] {
        var found: [(String, [UInt8])] = []
        for folder in ["Samples", "Tests"] {
            let root = repository.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where ["plist", "entitlements", "xcprivacy", "strings"].contains(url.pathExtension) {
                guard let data = try? Data(contentsOf: url), data.count < 4 << 20 else { continue }
                let bytes = [UInt8](data)
                if bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<plist".utf8)) { found.append((url.path, bytes)) }
            }
        }
        return found
    }

    static let handMade: [String] = [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n\t<key>Name</key>\n\t<string>caf&#233; &amp; &lt;&#x1F600;&gt; &quot;q&quot; &apos;</string>\n\t<key>Empty</key>\n\t<string/>\n\t<key>Yes</key><true/>\n\t<key>List</key>\n\t<array>\n\t\t<integer>-12</integer>\n\t\t<real>1.5e3</real>\n\t\t<date>2024-05-01T10:00:00Z</date>\n\t\t<data>\n\t\tAAEC\n\t\tAw==\n\t\t</data>\n\t\t<false />\n\t</array>\n</dict>\n</plist>\n",
        "<plist><array><string>a\r\nb\rc\r</string><string>\r</string></array></plist>",
        "\u{FEFF}<?xml version='1.0' encoding='utf-8' standalone='yes' ?><!-- before --><plist version='1.0'><!-- in --><string>x<!-- inside -->y</string><!-- after --></plist><!-- end -->\n",
        "<!DOCTYPE plist SYSTEM \"file.dtd\"><plist><dict><key>k</key><string>é€𝄞</string></dict></plist>",
        "<plist ><dict ><key >a</key ><integer>1</integer></dict ></plist >",
        "<plist><string>]] > ]> ]]</string><string>&#9;&#10;&#13;</string></plist>",
        "<plist><string>a</string></plist>",
        "<plist/>",
        "<plist><key>x</key><dict/><array/><string><true/></string></plist>",
    ]

    @Test func realPlistsGiveExpatsTokens() {
        let plists = Self.projectPlists()
        #expect(plists.count > 10)
        var accepted = 0
        for (path, bytes) in plists where Self.agree(bytes, path) { accepted += 1 }
        // Most of the project's plists are the common shape: the direct path is the usual one.
        #expect(accepted * 2 > plists.count, "the direct tokenizer read \(accepted) of \(plists.count)")
    }

    @Test func corpusPlistsGiveExpatsTokens() throws {
        let corpus = Self.repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/plist")
        // corelibs' enumerator is not nil for a missing directory: ask for the directory first.
        guard FileManager.default.fileExists(atPath: corpus.path),
              let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) else {
            print("skipped: ../shared/corpus not present")
            return
        }
        var checked = 0
        for case let url as URL in walker {
            guard let data = try? Data(contentsOf: url), data.count < 8 << 20 else { continue }
            Self.agree([UInt8](data), url.path)
            checked += 1
        }
        #expect(checked > 0)
    }

    @Test(arguments: handMade.indices)
    func handMadeDocumentsGiveExpatsTokens(index: Int) {
        let bytes = Array(Self.handMade[index].utf8)
        #expect(Self.agree(bytes, "document \(index)"), "left to expat")
        // Handed over a token at a time, the stream is the same.
        #expect(Self.agree(bytes, "document \(index), one token at a time", limit: 1))
    }

    /// What the direct tokenizer leaves to expat, and a sample of malformed documents.
    @Test(arguments: [
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist/>",
        "<?xml version=\"1.1\"?><plist/>",
        " <?xml version=\"1.0\"?><plist/>",
        "<plist><string><![CDATA[x]]></string></plist>",
        "<?pi x?><plist/>",
        "<plist><blob/></plist>",
        "<plist a='1' b='2'/>",
        "<plist><string>&nbsp;</string></plist>",
        "<plist><string>&#0;</string></plist>",
        "<plist><string>&#xD800;</string></plist>",
        "<plist><string>]]></string></plist>",
        "<plist><string>\u{1}</string></plist>",
        "<plist><dict>x</dict></plist>",
        "<plist><dict></array></plist>",
        "<plist><dict>",
        "<plist/><plist/>",
        "<plist/>x",
        "<!DOCTYPE plist [<!ENTITY a 'b'>]><plist/>",
        "<plist><!-- a -- b --></plist>",
        "",
    ])
    func leftToExpat(document: String) {
        #expect(Self.tokenizeDirectly(bytes: Array(document.utf8)) == nil)
    }

    @Test func invalidUTF8IsLeftToExpat() {
        for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF]] {
            let bytes = Array("<plist><string>".utf8) + bad + Array("</string></plist>".utf8)
            #expect(Self.tokenizeDirectly(bytes: bytes) == nil, "\(bad)")
        }
    }

    /// Mutations of the hand-made documents and the samples: bytes replaced by the ones XML
    /// gives meaning to, constructs inserted, ranges dropped or repeated. Whatever the direct
    /// tokenizer accepts, expat accepts with the same tokens.
    @Test func mutatedDocumentsNeverDisagree() {
        var seeds = Self.handMade.map { Array($0.utf8) }
        seeds += Self.projectPlists().prefix(6).map(\.1).filter { $0.count < 20_000 }
        let bytes: [UInt8] = Array("<>&/!-]\"'\r\n\t =?x;#".utf8) + [0, 0xC3, 0xA9, 0xBF, 0xEF, 0xE2, 0x80]
        let snippets = ["<!--", "-->", "&#x0;", "&#65;", "&#x10FFFF;", "&#1114112;", "<![CDATA[", "]]>", "</dict>", "<dict>", "<true/>",
                        "<string>", "</string>", "&amp", "\u{FEFF}", "\r\n", "<?x?>", "<!DOCTYPE plist>", " a='1'", "é"].map { Array($0.utf8) }
        var random = SplitMix64(seed: 0x5eed)
        var accepted = 0, total = 0
        for (n, seed) in seeds.enumerated() {
            for round in 0..<400 {
                var doc = seed
                for _ in 0...Int(random.next() % 3) {
                    guard !doc.isEmpty else { break }
                    let at = Int(random.next() % UInt64(doc.count))
                    switch random.next() % 4 {
                    case 0: doc[at] = bytes[Int(random.next() % UInt64(bytes.count))]
                    case 1: doc.insert(contentsOf: snippets[Int(random.next() % UInt64(snippets.count))], at: at)
                    case 2: doc.removeSubrange(at..<min(doc.count, at + 1 + Int(random.next() % 8)))
                    default: doc.insert(contentsOf: doc[at..<min(doc.count, at + 1 + Int(random.next() % 12))], at: at)
                    }
                }
                total += 1
                if Self.agree(doc, "seed \(n), mutation \(round)") { accepted += 1 }
            }
        }
        // Enough mutations stay well-formed for the comparison to mean something.
        #expect(accepted * 20 > total, "\(accepted) of \(total) accepted")
    }
}
