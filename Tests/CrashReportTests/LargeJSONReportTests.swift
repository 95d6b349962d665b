@testable import CrashReport
import Testing

/// Issue 15 §5: a Swift backtrace JSON of 500k frames, made here. Only the first 8,192 are
/// read; the JSON reader keeps at most `maxJSONArrayElements` of the array (the rest are
/// checked and dropped) and says so. Memory is checked on the binary in DevKitCLITests.
struct LargeJSONReportTests {
    static func backtrace(frames: Int) -> [UInt8] {
        var text = "*** Signal 11: Backtracing from 0x1000... done ***\n"
        text += "{\"kind\":\"crashReport\",\"description\":\"x\",\"threads\":[{\"name\":\"t\",\"crashed\":true,\"frames\":["
        text += (0..<frames).map { "{\"kind\":\"returnAddress\",\"address\":\"0x\(String(0x1000 + $0, radix: 16))\"}" }.joined(separator: ",")
        text += "]}],\"images\":[]}\n"
        return Array(text.utf8)
    }

    @Test func fiveHundredThousandFramesKeepABoundedPrefix() throws {
        let document = try CrashReportParser.parse(Self.backtrace(frames: 500_000))
        #expect(document.report.threads.first?.frames.count == CrashReportLimits.maxFramesPerThread)
        #expect(document.report.threads.first?.frames.last?.address == UInt64(0x1000 + CrashReportLimits.maxFramesPerThread - 1))
        let messages = document.warnings.map(\.message)
        #expect(messages.contains("the Swift backtrace JSON: an array of 500000 elements: only the first \(maxJSONArrayElements) are kept"))
        #expect(messages.contains("thread 0 has \(maxJSONArrayElements) or more frames; only the first 8192 are read"))
    }

    @Test func aCutArrayMustStillBeValidJSON() {
        var bytes = Self.backtrace(frames: maxJSONArrayElements + 10)
        // Break an element after the cut: the document is refused, not silently accepted.
        let broken = bytes.count - 40
        bytes[broken] = UInt8(ascii: "}")
        bytes[broken + 1] = UInt8(ascii: "}")
        #expect(throws: CrashReportError.self) { try CrashReportParser.parse(bytes) }
    }
}
