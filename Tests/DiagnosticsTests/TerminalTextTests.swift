import Diagnostics
import Testing

/// Control characters from input files never reach a terminal raw (issue 15, section 7).
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("plain name", "plain name"),
        ("evil\u{1B}[2J\u{07}", "evil\\x1B[2J\\x07"),
        ("over\rwrite", "over\\x0Dwrite"),
        ("a\u{7F}b\u{0}c", "a\\x7Fb\\x00c"),
        ("csi\u{9B}31m", "csi\\u{9B}31m"),
        ("two\nlines\ttab", "two\\x0Alines\\x09tab"),
        ("ünïcödé ✓", "ünïcödé ✓"),
    ])
    func escapesEveryControlCharacter(text: String, expected: String) {
        #expect(TerminalText.escaped(text) == expected)
    }

    @Test func aReportKeepsItsOwnLines() {
        #expect(TerminalText.escapedKeepingLines("Name\t\u{1B}]0;title\u{07}\nnext\r\n") == "Name\t\\x1B]0;title\\x07\nnext\\x0D\n")
    }

    @Test func diagnosticsEscapeFileAndMessage() {
        let diagnostic = Diagnostic(file: "a\u{1B}b.plist", position: .byteOffset(16), message: "bad name \"x\u{07}\ny\"")
        #expect(diagnostic.description == "a\\x1Bb.plist: offset 0x10: error: bad name \"x\\x07\\x0Ay\"")
    }
}
