import PropertyList

/// Reads the Swift runtime's `SWIFT_BACKTRACE=…,format=json` report: a one-line JSON object
/// (`"kind": "crashReport"`, `description`, `faultAddress`, `threads`, `images`, …) after
/// the runtime's `*** Signal N: Backtracing …` line and any `Fatal error:` message.
enum SwiftBacktraceJSONReader {
    /// `jsonLine`: the 1-based line the JSON object starts on.
    static func read(_ bytes: ArraySlice<UInt8>, jsonLine: Int) throws(CrashReportError) -> CrashReportDocument {
        var report = CrashReport(format: .swiftBacktrace)
        var warnings: [CrashDiagnostic] = []
        func warn(_ message: String) { warnings.append(CrashDiagnostic(line: jsonLine, message: message)) }

        // The lines before the JSON: the signal and the runtime's own messages.
        var lineNumber = 0
        var jsonStart = bytes.endIndex
        var rest = bytes
        while !rest.isEmpty {
            lineNumber += 1
            let end = rest.firstIndex(of: 0x0A) ?? rest.endIndex
            if lineNumber == jsonLine { jsonStart = rest.startIndex; break }
            let line = String(decoding: rest[rest.startIndex..<end].prefix(CrashReportLimits.maxLineLength), as: UTF8.self).trimmedWhitespace
            if line.hasPrefix("*** Signal ") {
                let number = line.dropFirst(11).prefix(while: \.isASCIIDigit)
                if let value = Int(number.prefix(4)) {
                    var exception = report.exception ?? CrashException()
                    exception.signal = SwiftBacktraceReader.signalName(value)
                    report.exception = exception
                }
            } else if line.contains("Fatal error:") || line.contains("Precondition failed") || line.contains("Assertion failed") {
                if report.applicationSpecificInformation.count < CrashReportLimits.maxInformationLines {
                    report.applicationSpecificInformation.append(String(line))
                }
            }
            rest = end < rest.endIndex ? rest[(end + 1)...] : rest[end...]
        }
        // The object is one line; anything the program wrote after it is not ours.
        var jsonBytes = bytes[jsonStart...]
        if let newline = jsonBytes.firstIndex(of: 0x0A) { jsonBytes = jsonBytes[..<newline] }
        let value = try readJSON(jsonBytes, firstLine: jsonLine, what: "Swift backtrace JSON", warn: warn)
        guard case .dictionary(let fields) = value else {
            throw CrashReportError(line: jsonLine, message: "the Swift backtrace JSON is a \(value.typeName), not an object")
        }
        if let kind = fields["kind"]?.string, kind != "crashReport" {
            warn("kind is '\(kind.prefix(40))', not crashReport")
        }
        var exception = report.exception ?? CrashException()
        exception.reason = fields["description"]?.string
        exception.faultAddress = fields["faultAddress"]?.hexString
        report.exception = exception
        report.architecture = fields["architecture"]?.string
        report.osVersion = fields["platform"]?.string
        report.timestamp = fields["timestamp"]?.string

        if case .array(let images)? = fields["images"] {
            for case let (_, imageFields?) in objects(in: images, limit: CrashReportLimits.maxBinaryImages, cut: "\(jsonCount(images)) images",
                                                      element: { "images[\($0)]" }, warn: warn) {
                var image = CrashBinaryImage(name: imageFields["name"]?.string ?? "???")
                image.uuid = imageFields["buildId"]?.string?.lowercased()
                image.path = imageFields["path"]?.string
                image.loadAddress = imageFields["baseAddress"]?.hexString
                image.endAddress = imageFields["endOfText"]?.hexString
                report.binaryImages.append(image)
            }
        } else if fields["images"] != nil {
            warn("images is not an array")
        }

        if case .array(let threads)? = fields["threads"] {
            for case let (index, threadFields?) in objects(in: threads, limit: CrashReportLimits.maxThreads, cut: "\(jsonCount(threads)) threads",
                                                           element: { "threads[\($0)]" }, warn: warn) {
                report.threads.append(thread(index: index, threadFields, warn: warn))
            }
        } else if fields["threads"] != nil {
            warn("threads is not an array")
        }
        SwiftBacktraceReader.finish(&report)
        return CrashReportDocument(report: report, warnings: warnings)
    }

    private static func thread(index: Int, _ fields: OrderedDictionaryView, warn: (String) -> Void) -> CrashThread {
        var thread = CrashThread(index: index, name: fields["name"]?.string, crashed: fields["crashed"]?.bool ?? false)
        if case .dictionary(let registers)? = fields["registers"] {
            for (name, value) in registers.prefix(CrashReportLimits.maxRegisters) {
                if let number = value.hexString { thread.registers.append(CrashRegister(name: name, value: number)) }
            }
        }
        guard case .array(let frames)? = fields["frames"] else { return thread }
        for case let (_, frameFields?) in objects(in: frames, limit: CrashReportLimits.maxFramesPerThread,
                                                  cut: "thread \(index) has \(jsonCount(frames)) frames", element: { "thread \(index) frame \($0)" }, warn: warn) {
            // `programCounter`, `returnAddress`, `asyncResumePoint`; `truncated` and
            // `omittedFrames` hold no address.
            guard let address = frameFields["address"]?.hexString else { continue }
            var frame = CrashFrame(index: thread.frames.count)
            frame.address = address
            let kind = frameFields["kind"]?.string
            frame.isReturnAddress = kind == "returnAddress" || kind == "asyncResumePoint"
            frame.imageName = frameFields["image"]?.string
            frame.symbolOffset = frameFields["offset"]?.integer?.uint64Value
            // `description` is the demangled `symbol + offset` the text form prints.
            if var description = frameFields["description"]?.string {
                if let offset = frame.symbolOffset, description.hasSuffix(" + \(offset)") {
                    description.removeLast(" + \(offset)".count)
                }
                frame.symbol = description
            } else {
                frame.symbol = frameFields["symbol"]?.string
            }
            if case .dictionary(let location)? = frameFields["sourceLocation"], let file = location["file"]?.string {
                var text = file
                if let line = location["line"]?.integer?.int64Value {
                    text += ":\(line)"
                    if let column = location["column"]?.integer?.int64Value, column > 0 { text += ":\(column)" }
                }
                frame.sourceLocation = text
            }
            thread.frames.append(frame)
        }
        return thread
    }
}
