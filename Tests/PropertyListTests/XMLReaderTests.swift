import Testing
@testable import PropertyList

/// Strict XML reading: each rejection names its line and column.
@Suite struct XMLReaderTests {
    static func plist(_ body: String) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n".utf8)
    }

    static func read(_ body: String) throws(PlistError) -> PlistValue {
        try PropertyListCoding.read(plist(body), format: .xml).value
    }

    static func failure(_ body: String) -> PlistError? {
        do { _ = try read(body); return nil } catch { return error }
    }

    /// A document cut short names what is left open at its end, not the XML parser's "no
    /// element found"; extra content before the end keeps expat's message.
    @Test func aTruncatedDocumentSaysWhatIsLeftOpen() throws {
        let head = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n"
        let cases: [(String, String)] = [
            (head + "<dict>\n<key>a</key>\n<string>b</string>\n", "6:1: the document ends inside the <dict> at 3:6 (truncated?)"),
            (head + "<dict>\n<key>a</key>\n<array><string>b</string>", "5:26: the document ends inside the <array> at 5:7 (truncated?)"),
            (head + "<dict/>\n", "4:1: the document ends before </plist> (truncated?)"),
        ]
        for (document, expected) in cases {
            let error = try #require(#expect(throws: PlistError.self) { try PropertyListCoding.read(Array(document.utf8), format: .xml) })
            #expect("\(error.position.map { "\($0)" } ?? "-"): \(error.message)" == expected)
        }
        let extra = head + "<dict/></plist>\n<plist/>\n"
        let error = #expect(throws: PlistError.self) { try PropertyListCoding.read(Array(extra.utf8), format: .xml) }
        #expect(error?.message == "junk after document element")
    }

    @Test func scalars() throws {
        let value = try Self.read("""
            <dict><key>s</key><string>a &amp; b &lt;c&gt; &#x2F20;</string>
            <key>i</key><integer>-42</integer><key>h</key><integer>0x1F</integer>
            <key>big</key><integer>18446744073709551615</integer>
            <key>r</key><real>-0.0</real><key>n</key><real>nan</real><key>inf</key><real>-inf</real>
            <key>t</key><true/><key>f</key><false/>
            <key>d</key><date>2024-02-29T23:59:59Z</date>
            <key>data</key><data>
              AAEC
              /w==
            </data>
            <key>cdata</key><string><![CDATA[<not a tag>]]></string>
            <key>empty</key><string/></dict>
            """)
        guard case .dictionary(let d) = value else { Issue.record("not a dict"); return }
        #expect(d["s"] == .string("a & b <c> \u{2F20}"))
        #expect(d["i"] == .int(-42))
        #expect(d["h"] == .int(31))
        #expect(d["big"] == .integer(PlistInteger(UInt64.max)))
        #expect(d["r"] == .double(-0.0))
        #expect(d["r"] != .double(0.0))
        #expect(d["n"] == .double(.nan))
        #expect(d["inf"] == .double(-.infinity))
        #expect(d["t"] == .bool(true))
        #expect(d["f"] == .bool(false))
        #expect(d["d"].map { "\($0)" } == "\(PlistValue.date(PlistDate(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59)!))")
        #expect(d["data"] == .data([0, 1, 2, 255]))
        #expect(d["cdata"] == .string("<not a tag>"))
        #expect(d["empty"] == .string(""))
        #expect(Array(d.keys) == ["s", "i", "h", "big", "r", "n", "inf", "t", "f", "d", "data", "cdata", "empty"])
    }

    /// An element's position is its start tag's `>`.
    @Test func duplicateKeyNamesBothPositions() {
        let error = Self.failure("<dict>\n<key>a</key><string>1</string>\n<key>a</key><string>2</string>\n</dict>")
        #expect(error?.position == .text(line: 5, column: 5))
        #expect(error?.message == "duplicate key \"a\" (first defined at 4:5)")
    }

    /// Positions count characters, in UTF-8 and in UTF-16 alike: the same document gives the
    /// same line and column in either.
    @Test func positionsCountCharactersInEveryEncoding() throws {
        let xml = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>é</key><string>ü</string><key>é</key><integer>1</integer>\n</dict></plist>\n"
        var utf16 = [UInt8(0xFF), 0xFE]
        for unit in xml.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        for bytes in [Array(xml.utf8), utf16] {
            let error = #expect(throws: PlistError.self) { try PropertyListCoding.read(bytes, format: .xml) }
            // The second <key>'s '>' is the 35th character of line 4.
            #expect(error?.position == .text(line: 4, column: 35))
            #expect(error?.message == "duplicate key \"é\" (first defined at 4:5)")
        }
    }

    @Test(arguments: [
        ("<integer>9223372036854775808</integer>", nil as String?),
        ("<integer>18446744073709551616</integer>", "out of range"),
        ("<integer>-9223372036854775809</integer>", "out of range"),
        ("<integer>12abc</integer>", "is not an integer"),
        ("<integer></integer>", "is not an integer"),
        ("<real>1.5.2</real>", "is not a real number"),
        ("<real>0x1p3</real>", "is not a real number"),
        ("<date>2024-13-01T00:00:00Z</date>", "not a valid date"),
        ("<date>2023-02-29T00:00:00Z</date>", "not a valid date"),
        ("<date>2024-02-30T00:00:00Z</date>", "not a valid date"),
        ("<date>2024-01-01T24:00:00Z</date>", "not a valid date"),
        ("<date>2024-01-01</date>", "not a valid date"),
        ("<data>AAE=C</data>", "not valid base64"),
        ("<data>A</data>", "not valid base64"),
        ("<data>AA*A</data>", "not valid base64"),
        ("<true>x</true>", "must be empty"),
        ("<foo/>", "unknown element <foo>"),
        ("<dict><key>k</key></dict>", "key \"k\" has no value"),
        ("<dict><string>v</string></dict>", "has no <key> before it"),
        ("<array><key>k</key></array>", "<key> outside a <dict>"),
        ("<string>a</string><string>b</string>", "more than one value"),
        ("<dict>text</dict>", "unexpected text"),
        ("<string><b/></string>", "not allowed inside <string>"),
        ("", "holds no value"),
    ])
    func rejections(body: String, expected: String?) {
        let error = Self.failure(body)
        guard let expected else {
            #expect(error == nil, "\(body): \(String(describing: error))")
            return
        }
        #expect(error?.message.contains(expected) == true, "\(body): \(String(describing: error))")
        if case .text(let line, let column)? = error?.position {
            #expect(line >= 3 && column >= 1, "\(body)")
        } else {
            Issue.record("\(body): no line:column in \(String(describing: error))")
        }
    }

    @Test func rootMustBePlist() throws {
        let error = #expect(throws: PlistError.self) {
            try PropertyListCoding.read(Array("<dict></dict>".utf8), format: .xml)
        }
        #expect(error?.message == "root element is <dict>, expected <plist>")
    }

    @Test func trailingContentAfterRoot() {
        let bytes = Array("<plist><string/></plist><plist/>".utf8)
        #expect(throws: PlistError.self) { try PropertyListCoding.read(bytes, format: .xml) }
    }

    /// XXE: an external entity must never be loaded; an entity declaration is refused.
    @Test func externalEntitiesAreRefused() {
        let xxe = Array("""
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <plist><string>&x;</string></plist>
            """.utf8)
        let error = #expect(throws: PlistError.self) { try PropertyListCoding.read(xxe, format: .xml) }
        #expect(error?.message.contains("entity declaration") == true)
        #expect(error?.position == .text(line: 2, column: 56))
    }

    @Test func billionLaughsIsRefused() {
        var doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY a0 \"lol\">\n"
        for i in 1..<10 { doc += "<!ENTITY a\(i) \"" + String(repeating: "&a\(i - 1);", count: 10) + "\">\n" }
        doc += "]>\n<plist><string>&a9;</string></plist>\n"
        #expect(throws: PlistError.self) { try PropertyListCoding.read(Array(doc.utf8), format: .xml) }
    }

    @Test func externalDTDIsNotFetched() throws {
        // The standard DOCTYPE names a URL; parsing must not need (or try) the network.
        let value = try PropertyListCoding.read(XMLPlistWriter.write(.string("x")), format: .xml).value
        #expect(value == .string("x"))
    }

    @Test func deepNestingFailsCleanly() {
        let depth = 100_000
        let doc = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        let error = #expect(throws: PlistError.self) { try PropertyListCoding.read(Array(doc.utf8), format: .xml) }
        #expect(error?.message == "containers nested deeper than 512 levels")
        #expect(error?.position == .text(line: 1, column: 7 + 7 * 513))  // the 513th <array>
    }

    @Test func utf16WithBOM() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><string>héllo ✓</string></plist>"
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try PropertyListCoding.read(bytes).value == .string("héllo ✓"))
    }

    @Test func invalidUTF8IsAnErrorWithPosition() {
        let bytes = Array("<plist><string>".utf8) + [0xC3, 0x28] + Array("</string></plist>".utf8)
        let error = #expect(throws: PlistError.self) { try PropertyListCoding.read(bytes, format: .xml) }
        #expect(error?.position == .text(line: 1, column: 16))
    }

    @Test func nulByteIsAnError() {
        let bytes = Array("<plist><string>a".utf8) + [0] + Array("</string></plist>".utf8)
        #expect(throws: PlistError.self) { try PropertyListCoding.read(bytes, format: .xml) }
    }

    @Test func uidDictionaryReadsAsUID() throws {
        #expect(try Self.read("<dict><key>CF$UID</key><integer>7</integer></dict>") == .uid(7))
    }
}

/// Issue 15 §5: XML parsers are quadratic in one element's attributes; the shim refuses an
/// element with more than 16 before expat parses it.
@Suite struct XMLAttributeFloodTests {
    @Test func twoHundredThousandAttributesAreRefusedWithTheirPosition() {
        var doc = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\""
        for i in 0..<200_000 { doc += " a\(i)=\"x\"" }
        doc += "><string/></plist>\n"
        let error = #expect(throws: PlistError.self) { try PropertyListCoding.read(Array(doc.utf8), format: .xml) }
        #expect(error?.message == "an element has more than 16 attributes (a plist uses at most one)")
        // The 17th '=' after "<plist version=" (col 15) and 15 more " aN=\"x\"": line 2.
        if case .text(let line, _)? = error?.position { #expect(line == 2) } else { Issue.record("no position: \(String(describing: error))") }
    }

    /// The refusal points at the 17th '=' of the element, line and column (bytes, 1-based).
    @Test func theRefusalPointsAtTheAttributeTooMany() {
        let tag = "  <string" + (0..<20).map { " a\($0)=\"x\"" }.joined() + ">v</string>"
        let doc = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array>\n" + tag + "\n</array></plist>\n"
        var equals = 0
        var column = 0
        for (index, byte) in tag.utf8.enumerated() where byte == UInt8(ascii: "=") {
            equals += 1
            if equals == 17 { column = index + 1; break }
        }
        let error = #expect(throws: PlistError.self) { try PropertyListCoding.read(Array(doc.utf8), format: .xml) }
        #expect(error?.position == .text(line: 3, column: column))
    }

    @Test func attributesInCommentsTextAndDeclarationsAreNotCounted() throws {
        let many = String(repeating: " a=\"=\"", count: 40)
        let doc = "<?xml version=\"1.0\"?>\n<!-- <x\(many)> -->\n<plist version=\"1.0\"><array><string>\(String(repeating: "=", count: 100))</string>"
            + "<string><![CDATA[<y\(many)>]]></string></array></plist>\n"
        let value = try PropertyListCoding.read(Array(doc.utf8), format: .xml).value
        #expect(value == .array([.string(String(repeating: "=", count: 100)), .string("<y\(many)>")]))
    }
}
