/// Entry point: recognises the format and hands the bytes to its reader.
public enum CrashReportParser {
    /// Reads `bytes` in the format its content shows (see `detectFormat`).
    public static func parse(_ bytes: [UInt8]) throws(CrashReportError) -> CrashReportDocument {
        try read(bytes, as: detectFormat(bytes[contentStart(bytes)...]))
    }

    /// Reads `bytes` as `format`, whatever their content looks like.
    public static func parse(_ bytes: [UInt8], as format: CrashReport.Format) throws(CrashReportError) -> CrashReportDocument {
        try read(bytes, as: format)
    }

    /// The format `bytes` are in, by content (first match wins):
    /// 1. Swift backtrace: a line starting `*** Program crashed: ` or `*** Signal N: Backtracing`
    ///    (text, and the line before `format=json`'s object), or a JSON line with
    ///    `"kind": "crashReport"`.
    /// 2. JSON, when the first non-blank byte is `{` (such files are not looked at for 3 and 4):
    ///    `.ips` when the first line has `"bug_type"` (its one-line header); else, by the keys in
    ///    the first 64 KiB, KSCrash (`"binary_images"`) or MetricKit (`"callStackTree"`,
    ///    `"crashDiagnostics"`, `"hangDiagnostics"`, …); else `.ips`.
    /// 3. Sanitizer: a line `==PID==ERROR: …Sanitizer:`, `WARNING: ThreadSanitizer:`,
    ///    `SUMMARY: …Sanitizer:` or `…: runtime error: ` (UBSan).
    /// 4. Address list: every line is blank, a `#` comment or an address (optionally after a
    ///    frame number), and there is at least one address.
    /// 5. Anything else is tried as Apple's text report.
    /// Only the first 4096 lines are looked at (the markers come first in real logs).
    public static func detectFormat(_ bytes: [UInt8]) -> CrashReport.Format {
        detectFormat(bytes[contentStart(bytes)...])
    }

    /// The format `bytes` are in when their content marks one, for `symbolicate --group`, which
    /// skips a directory's other files: as `detectFormat`, but nil where that only falls back —
    /// a JSON object without `.ips`'s header, KSCrash's or MetricKit's keys, text without one of
    /// Apple's report headers (`Incident Identifier:`, `Process:`, `Exception Type:`,
    /// `Crashed Thread:`, `Triggered by Thread:`, `Binary Images:`) in its first 4096 lines —
    /// and for address lists, which name no image.
    public static func recognizedFormat(_ bytes: [UInt8]) -> CrashReport.Format? {
        let body = bytes[contentStart(bytes)...]
        switch detectFormat(body) {
        case .addressList, .coreDump: return nil
        case .ips:
            let firstLine = body.prefix(while: { $0 != 0x0A }).prefix(CrashReportLimits.maxLineLength)
            return firstLine.containsBytes("\"bug_type\"") ? .ips : nil
        case .appleText:
            let markers = ["Incident Identifier:", "Process:", "Exception Type:", "Crashed Thread:", "Triggered by Thread:", "Binary Images:"]
            var lineNumber = 0
            for line in Lines(body) {
                lineNumber += 1
                if lineNumber > 4096 { break }
                let trimmed = line.prefix(CrashReportLimits.maxLineLength).trimmingASCIISpace
                if markers.contains(where: { trimmed.starts(with: $0.utf8) }) { return .appleText }
            }
            return nil
        case let format: return format
        }
    }

    static func detectFormat(_ body: ArraySlice<UInt8>) -> CrashReport.Format {
        var startsWithObject = false
        var looksLikeAddressList = true
        var addresses = 0
        var lineNumber = 0
        // Bytes, not Strings: detection looks at every line of a log the reader then reads
        // again, so it must cost little next to the reading.
        for rawLine in Lines(body) {
            lineNumber += 1
            if lineNumber > 4096 { break }
            let line = rawLine.prefix(CrashReportLimits.maxLineLength)
            if isSwiftJSON(line) { return .swiftBacktrace }
            if lineNumber == 1, line.first == UInt8(ascii: "{") { startsWithObject = true }
            let trimmed = line.trimmingASCIISpace
            if trimmed.starts(with: "*** Program crashed: ".utf8)
                || (trimmed.starts(with: "*** Signal ".utf8) && trimmed.containsBytes(": Backtracing")) {
                return .swiftBacktrace
            }
            if startsWithObject { continue }
            if isSanitizerLine(trimmed) { return .sanitizer }
            if looksLikeAddressList {
                if AddressListReader.entry(String(decoding: line, as: UTF8.self)) != nil {
                    addresses += 1
                } else if !trimmed.isEmpty && trimmed.first != UInt8(ascii: "#") {
                    looksLikeAddressList = false
                }
            }
        }
        if startsWithObject { return jsonFormat(body) }
        if looksLikeAddressList && addresses > 0 { return .addressList }
        return .appleText
    }

    /// Which JSON report `body` (starting with `{`) is: see `detectFormat` step 2.
    static func jsonFormat(_ body: ArraySlice<UInt8>) -> CrashReport.Format {
        let firstLine = body.prefix(while: { $0 != 0x0A }).prefix(CrashReportLimits.maxLineLength)
        if firstLine.containsBytes("\"bug_type\"") { return .ips }
        let head = body.prefix(64 * 1024)
        if head.containsBytes("\"binary_images\"") { return .kscrash }
        let metricKitKeys = ["\"callStackTree\"", "\"callStackRootFrames\"", "\"crashDiagnostics\"", "\"hangDiagnostics\"",
                             "\"cpuExceptionDiagnostics\"", "\"diskWriteExceptionDiagnostics\"", "\"diagnosticMetaData\""]
        if metricKitKeys.contains(where: { head.containsBytes($0) }) { return .metricKit }
        return .ips
    }

    /// A line of the Swift runtime's JSON report: an object with `"kind": "crashReport"` near its start.
    static func isSwiftJSON(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.first == UInt8(ascii: "{") else { return false }
        let head = line.prefix(512)
        return head.containsBytes("\"kind\": \"crashReport\"") || head.containsBytes("\"kind\":\"crashReport\"")
    }

    /// `==1234==ERROR: AddressSanitizer: …`, `WARNING: ThreadSanitizer: …`,
    /// `SUMMARY: UndefinedBehaviorSanitizer: …`, or UBSan's `file:1:2: runtime error: …`.
    private static func isSanitizerLine(_ line: ArraySlice<UInt8>) -> Bool {
        var text = line
        if text.starts(with: "==".utf8), let end = text.dropFirst(2).firstRange(ofBytes: "==") { text = text[end.upperBound...] }
        for prefix in ["ERROR: ", "WARNING: ", "SUMMARY: "] where text.starts(with: prefix.utf8) {
            let tool = text.dropFirst(prefix.utf8.count).prefix(while: { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: " ") })
            if tool.count >= 9, tool.suffix(9).elementsEqual("Sanitizer".utf8) { return true }
        }
        return text.containsBytes(": runtime error: ")
    }

    /// JSON (`.ips`, MetricKit, KSCrash) is read from its first non-blank byte (the header must be the first line);
    /// the line-based readers from the first line, so the lines they report are the file's.
    private static func read(_ bytes: [UInt8], as format: CrashReport.Format) throws(CrashReportError) -> CrashReportDocument {
        let isJSON = format == .ips || format == .metricKit || format == .kscrash
        let body = bytes[(isJSON ? contentStart(bytes) : bomLength(bytes))...]
        switch format {
        case .appleText: return try AppleCrashTextReader.read(body)
        case .ips: return try IPSReader.read(body)
        case .swiftBacktrace: return try SwiftBacktraceReader.read(body)
        case .sanitizer: return try SanitizerReportReader.read(body)
        case .addressList: return try AddressListReader.read(body)
        case .metricKit: return try MetricKitReader.read(body)
        case .kscrash: return try KSCrashReader.read(body)
        case .coreDump: throw CrashReportError(line: nil, message: "core dumps are read by the core-dump reader, not from text")
        }
    }

    private static func bomLength(_ bytes: [UInt8]) -> Int { bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0 }

    /// After a UTF-8 byte-order mark and leading blank space.
    private static func contentStart(_ bytes: [UInt8]) -> Int {
        var start = bomLength(bytes)
        while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0A || bytes[start] == 0x0D {
            start += 1
        }
        return start
    }
}
