import CrashReport
import Testing

@Suite struct AddressListReaderTests {
    @Test func formsOfAnAddress() throws {
        let text = """
            # from a crash reporter
            0x1000
            1000a   # a trailing comment
            2 0x2000

            3 0XABCDEF
            """
        let document = try CrashReportParser.parse(Array(text.utf8))
        #expect(document.report.format == .addressList)
        #expect(document.warnings.isEmpty)
        let thread = try #require(document.report.threads.first)
        #expect(thread.frames.map(\.address) == [0x1000, 0x1000a, 0x2000, 0xabcdef])
        #expect(thread.frames.map(\.line) == [2, 3, 4, 6])
        #expect(thread.frames.map(\.isReturnAddress) == [false, true, true, true])
        #expect(thread.frames.allSatisfy { $0.imageName == nil })
        #expect(document.report.crashedThread == 0 && thread.crashed)
    }

    @Test func badLinesAreWarningsWhenReadAsAddressList() throws {
        let text = "0x10\nnot an address\n0x123456789abcdef01\n0x20\n"
        #expect(CrashReportParser.detectFormat(Array(text.utf8)) == .appleText)
        let document = try CrashReportParser.parse(Array(text.utf8), as: .addressList)
        #expect(document.report.threads.first?.frames.map(\.address) == [0x10, 0x20])
        #expect(document.warnings.map(\.line) == [2, 3])
    }

    @Test func nothingButCommentsIsAnError() {
        #expect(throws: CrashReportError.self) { try CrashReportParser.parse(Array("# nothing\n\n".utf8), as: .addressList) }
    }
}
