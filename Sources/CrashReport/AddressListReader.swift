/// Reads a plain list of addresses, one a line: `0x1a2b`, `1a2b`, `3 0x1a2b` (a leading frame
/// number), `# comments` and blank lines skipped. One thread of frames without an image: the
/// image is given on the command line.
///
/// Hand-written: the format is a few lines of grammar.
enum AddressListReader {
    static func read(_ bytes: ArraySlice<UInt8>) throws(CrashReportError) -> CrashReportDocument {
        var report = CrashReport(format: .addressList)
        var warnings: [CrashDiagnostic] = []
        var thread = CrashThread(index: 0, crashed: true)
        var lineNumber = 0
        var cut = false
        for rawLine in Lines(bytes) {
            lineNumber += 1
            if rawLine.count > CrashReportLimits.maxLineLength {
                warnings.append(CrashDiagnostic(line: lineNumber, message: "line of \(rawLine.count) bytes is not an address; skipped"))
                continue
            }
            let line = String(decoding: rawLine, as: UTF8.self)
            guard let address = entry(line) else {
                let trimmed = line.trimmedWhitespace
                if !trimmed.isEmpty, !trimmed.hasPrefix("#") {
                    warnings.append(CrashDiagnostic(line: lineNumber, message: "'\(trimmed.prefix(40))' is not an address"))
                }
                continue
            }
            guard thread.frames.count < CrashReportLimits.maxFramesPerThread else {
                if !cut {
                    cut = true
                    warnings.append(CrashDiagnostic(line: lineNumber, message: "more than \(CrashReportLimits.maxFramesPerThread) addresses; the rest are skipped"))
                }
                continue
            }
            var frame = CrashFrame(index: thread.frames.count)
            frame.address = address
            frame.line = lineNumber
            // As for any backtrace: the first address is where the thread was, the others return addresses.
            frame.isReturnAddress = !thread.frames.isEmpty
            thread.frames.append(frame)
        }
        guard !thread.frames.isEmpty else {
            throw CrashReportError(line: nil, message: "no addresses found")
        }
        report.threads = [thread]
        report.crashedThread = 0
        return CrashReportDocument(report: report, warnings: warnings)
    }

    /// The address on one line, or nil (blank, comment or anything else). A trailing
    /// `# comment` is allowed.
    static func entry(_ line: String) -> UInt64? {
        var text = line[...]
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        switch words.count {
        case 1: return parseHex(words[0])
        case 2:
            // `3 0x1a2b`: a frame number, then the address.
            guard words[0].allSatisfy(\.isASCIIDigit), words[0].count < 10 else { return nil }
            return parseHex(words[1])
        default: return nil
        }
    }
}
