/// Reads Apple's legacy text crash report (`.crash`, also what Xcode and Sentry export).
///
/// Hand-written: no Swift library parses this format. The reader is line based and lenient:
/// a line it does not understand inside a section becomes a warning, not a failure, so a
/// damaged or hand-edited log still yields what it holds.
enum AppleCrashTextReader {
    private enum Section {
        case header
        case thread(Int)
        case registers(Int)
        case images
        /// `Application Specific Information:` lines, up to a blank line.
        case applicationSpecific
        /// `Last Exception Backtrace:` frames or the parenthesised address list.
        case lastException
        case other
    }

    static func read(_ bytes: ArraySlice<UInt8>) throws(CrashReportError) -> CrashReportDocument {
        var report = CrashReport(format: .appleText)
        var section = Section.header
        var threadNames: [Int: String] = [:]
        var recognised = false
        var skippedThreads = 0
        var frameCap = FrameCap()
        var lastExceptionCut = false
        var addressListOpen = false
        var informationCut = false

        var log = LogReading(bytes)
        while let trimmed = log.nextLine() {

            if trimmed.isEmpty {
                switch section {
                case .registers, .applicationSpecific: section = .other
                case .lastException where !report.lastExceptionBacktrace.isEmpty: section = .other
                default: break
                }
                continue
            }
            if case .applicationSpecific = section, !startsSection(trimmed) {
                // Free text (assertion messages, `*** Terminating app …`): kept verbatim.
                if report.applicationSpecificInformation.count < CrashReportLimits.maxInformationLines {
                    report.applicationSpecificInformation.append(String(trimmed))
                } else if !informationCut {
                    informationCut = true
                    log.warn("more than \(CrashReportLimits.maxInformationLines) Application Specific Information lines; the rest are skipped")
                }
                continue
            }
            if trimmed.hasPrefix("Application Specific Information:") {
                recognised = true
                section = .applicationSpecific
                let rest = trimmed.dropFirst("Application Specific Information:".count).trimmedWhitespace
                if !rest.isEmpty { report.applicationSpecificInformation.append(String(rest)) }
                continue
            }
            if trimmed.hasPrefix("Last Exception Backtrace:") {
                recognised = true
                section = .lastException
                addressListOpen = false
                continue
            }

            // Section starts, wherever they appear.
            if let (index, name) = threadNameLine(trimmed) {
                threadNames[index] = name
                continue
            }
            if let (index, crashed) = threadStart(trimmed) {
                recognised = true
                if report.threads.count >= CrashReportLimits.maxThreads {
                    skippedThreads += 1
                    section = .other
                    continue
                }
                var thread = CrashThread(index: index, name: threadNames[index], crashed: crashed)
                if crashed, report.crashedThread == nil { report.crashedThread = index }
                if let queue = trimmed.firstRange(of: "Dispatch queue: ") {
                    thread.name = thread.name ?? String(trimmed[queue.upperBound...])
                }
                report.threads.append(thread)
                section = .thread(report.threads.count - 1)
                continue
            }
            if trimmed.hasPrefix("Thread State") || (trimmed.hasPrefix("Thread ") && trimmed.contains("Thread State")) {
                // `Thread 0 crashed with ARM Thread State (64-bit):` (also 32-bit, X86): the
                // numbered thread; a bare `Thread State` goes to the crashed (else first) thread.
                let named = Int(trimmed.dropFirst(7).prefix(while: \.isASCIIDigit).prefix(9))
                let target = named.flatMap { number in report.threads.firstIndex { $0.index == number } }
                    ?? report.threads.firstIndex(where: \.crashed) ?? (report.threads.isEmpty ? nil : 0)
                section = target.map { .registers($0) } ?? .other
                continue
            }
            if trimmed.hasPrefix("Binary Images") {
                recognised = true
                section = .images
                continue
            }

            switch section {
            case .header, .other:
                guard let colon = trimmed.firstIndex(of: ":") else { continue }
                let key = trimmed[..<colon].trimmedWhitespace
                let value = String(trimmed[trimmed.index(after: colon)...].trimmedWhitespace)
                if headerField(key: key, value: value, into: &report) { recognised = true }
            case .thread(let position):
                guard frameCap.admits(report.threads[position], position: position, named: "thread \(report.threads[position].index)", warn: { log.warn($0) }) else { continue }
                switch frameLine(trimmed) {
                case .frame(var frame):
                    frame.line = log.lineNumber
                    frame.isReturnAddress = !report.threads[position].frames.isEmpty
                    report.threads[position].frames.append(frame)
                case .bad(let reason): log.warn(reason)
                case .notAFrame: section = .other
                }
            case .lastException:
                guard report.lastExceptionBacktrace.count < CrashReportLimits.maxFramesPerThread else {
                    if !lastExceptionCut {
                        lastExceptionCut = true
                        log.warn("the last exception backtrace has more than \(CrashReportLimits.maxFramesPerThread) frames; the rest are skipped")
                    }
                    continue
                }
                if trimmed.hasPrefix("(") || addressListOpen {
                    // `(0x1a2b 0x3c4d …)`: addresses only, outermost call last, as in a frame list.
                    addressListOpen = !trimmed.hasSuffix(")")
                    let body = trimmed.drop(while: { $0 == "(" })
                    for word in body.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ")" }) {
                        guard report.lastExceptionBacktrace.count < CrashReportLimits.maxFramesPerThread else { break }
                        guard let address = parseHex(word) else {
                            log.warn("last exception backtrace: '\(word.prefix(40))' is not a hexadecimal address")
                            continue
                        }
                        var frame = CrashFrame(index: report.lastExceptionBacktrace.count)
                        frame.address = address
                        frame.line = log.lineNumber
                        frame.isReturnAddress = frame.index > 0
                        report.lastExceptionBacktrace.append(frame)
                    }
                    continue
                }
                switch frameLine(trimmed) {
                case .frame(var frame):
                    frame.line = log.lineNumber
                    frame.isReturnAddress = !report.lastExceptionBacktrace.isEmpty
                    report.lastExceptionBacktrace.append(frame)
                case .bad(let reason): log.warn(reason)
                case .notAFrame:
                    section = .other
                    if let colon = trimmed.firstIndex(of: ":") {
                        let key = trimmed[..<colon].trimmedWhitespace
                        let value = String(trimmed[trimmed.index(after: colon)...].trimmedWhitespace)
                        if headerField(key: key, value: value, into: &report) { recognised = true }
                    }
                }
            case .applicationSpecific:
                break  // handled before the section starts

            case .registers(let position):
                for (name, text) in registerPairs(trimmed) {
                    guard report.threads[position].registers.count < CrashReportLimits.maxRegisters else { break }
                    if let value = parseHex(text) {
                        report.threads[position].registers.append(CrashRegister(name: name, value: value))
                    } else {
                        log.warn("register \(name): '\(text.prefix(40))' is not a hexadecimal value")
                    }
                }
            case .images:
                guard report.binaryImages.count < CrashReportLimits.maxBinaryImages else { continue }
                if let image = imageLine(trimmed) {
                    report.binaryImages.append(image)
                } else if trimmed.hasPrefix("0x") {
                    log.warn("not a binary image line: '\(trimmed.prefix(60))'")
                } else {
                    // The list is contiguous: other text (EOF, External Modification Summary, …) ends it.
                    section = .other
                }
            }
        }
        // The thread marked `Crashed` wins over a header that names another (hand-edited logs).
        if let marked = report.threads.first(where: \.crashed)?.index, marked != report.crashedThread {
            if let named = report.crashedThread {
                log.warnAboutLog("the header names thread \(named) as crashed but thread \(marked) is marked Crashed; using \(marked)")
            }
            report.crashedThread = marked
        } else if let named = report.crashedThread, let position = report.threads.firstIndex(where: { $0.index == named }) {
            report.threads[position].crashed = true
        }
        if var exception = report.exception, exception.faultAddress == nil, exception.type == "EXC_BAD_ACCESS",
           let codes = exception.codes, let address = FaultAddress.fromBadAccessCodes(codes) {
            exception.faultAddress = address
            report.exception = exception
        }
        if skippedThreads > 0 {
            log.warnAboutLog("\(skippedThreads) threads beyond \(CrashReportLimits.maxThreads) skipped")
        }
        guard recognised else {
            throw CrashReportError(line: nil, message: "not an Apple crash report (no Process:, Exception Type:, thread or Binary Images section found)")
        }
        return CrashReportDocument(report: report, warnings: log.warnings)
    }

    /// Lines that start a section even without a blank line before them.
    private static func startsSection(_ line: Substring) -> Bool {
        line.hasPrefix("Application Specific Information:") || line.hasPrefix("Last Exception Backtrace:")
            || line.hasPrefix("Binary Images") || threadStart(line) != nil
    }

    /// Fills the report from one `Key: value` header line; true when the key is a crash-report one.
    private static func headerField(key: Substring, value: String, into report: inout CrashReport) -> Bool {
        switch key {
        case "Process":
            // `name [pid]`
            if let open = value.lastIndex(of: "["), value.hasSuffix("]") {
                report.process = String(value[..<open].trimmedWhitespace)
                report.processID = Int64(value[value.index(after: open)..<value.index(before: value.endIndex)])
            } else {
                report.process = value
            }
        case "Path": report.path = value
        case "OS Version": report.osVersion = value
        case "Code Type": report.architecture = value
        case "Exception Type":
            var exception = report.exception ?? CrashException()
            // `EXC_CRASH (SIGABRT)`
            if let open = value.firstIndex(of: "("), value.hasSuffix(")") {
                exception.type = String(value[..<open].trimmedWhitespace)
                exception.signal = String(value[value.index(after: open)..<value.index(before: value.endIndex)])
            } else {
                exception.type = value
            }
            report.exception = exception
        case "Exception Codes":
            var exception = report.exception ?? CrashException()
            exception.codes = value
            if exception.faultAddress == nil { exception.faultAddress = FaultAddress.afterAt(value) }
            report.exception = exception
        case "Exception Subtype", "Exception Reason", "Exception Message", "Termination Reason":
            var exception = report.exception ?? CrashException()
            if exception.reason == nil { exception.reason = value }
            if key == "Exception Subtype", let address = FaultAddress.afterAt(value) { exception.faultAddress = address }
            report.exception = exception
            if key == "Termination Reason", report.terminationReason == nil { report.terminationReason = String(value) }
        case "Crashed Thread", "Triggered by Thread", "Highlighted Thread":
            let digits = value.prefix(while: \.isASCIIDigit)
            if let index = Int(digits), report.crashedThread == nil { report.crashedThread = index }
        case "Version": if report.appVersion == nil, !value.isEmpty { report.appVersion = value }
        case "Date/Time": if report.timestamp == nil, !value.isEmpty { report.timestamp = value }
        case "Incident Identifier", "Hardware Model", "Report Version", "Identifier": break
        default: return false
        }
        return true
    }

    /// `Thread 3 name:  Dispatch queue: …` → (3, the name).
    private static func threadNameLine(_ line: Substring) -> (Int, String)? {
        guard line.hasPrefix("Thread "), let range = line.firstRange(of: " name:") else { return nil }
        let number = line[line.index(line.startIndex, offsetBy: 7)..<range.lowerBound]
        guard let index = Int(number) else { return nil }
        return (index, String(line[range.upperBound...].trimmedWhitespace))
    }

    /// `Thread 0 Crashed:`, `Thread 0 Crashed:: Dispatch queue: …`, `Thread 1:` → (index, crashed).
    private static func threadStart(_ line: Substring) -> (Int, Bool)? {
        guard line.hasPrefix("Thread ") else { return nil }
        let rest = line.dropFirst(7)
        let digits = rest.prefix(while: \.isASCIIDigit)
        guard !digits.isEmpty, digits.count < 10, let index = Int(digits) else { return nil }
        let after = rest.dropFirst(digits.count)
        if after.hasPrefix(":") { return (index, false) }
        if after.hasPrefix(" Crashed:") { return (index, true) }
        return nil
    }

    private enum FrameParse {
        case frame(CrashFrame)
        case bad(String)
        case notAFrame
    }

    /// `4   icdab_planets   0x00000001045490f0 0x104544000 + 20720` or `… 0x… symbol + 8 (file.c:3)`.
    /// Image names may hold spaces, so the image name ends where the first `0x` word starts.
    private static func frameLine(_ line: Substring) -> FrameParse {
        let digits = line.prefix(while: \.isASCIIDigit)
        guard !digits.isEmpty, digits.count < 10, let index = Int(digits) else { return .notAFrame }
        let rest = line.dropFirst(digits.count)
        guard let first = rest.first, first == " " || first == "\t" else { return .notAFrame }
        var frame = CrashFrame(index: index)
        let words = rest.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let addressWord = words.firstIndex(where: { $0.hasPrefix("0x") }) else {
            // No address (an edited or placeholder log): keep image and the text after it.
            frame.imageName = words.first.map(String.init)
            if words.count > 1 { frame.symbol = words[1...].joined(separator: " ") }
            return .frame(frame)
        }
        if addressWord > words.startIndex {
            frame.imageName = words[words.startIndex..<addressWord].joined(separator: " ")
        }
        guard let address = parseHex(words[addressWord]) else {
            return .bad("frame \(index): '\(words[addressWord].prefix(40))' is not a hexadecimal address")
        }
        frame.address = address
        let tail = words[(addressWord + 1)...]
        // `0xBASE + OFFSET` (unsymbolicated) or `symbol + OFFSET [(file:line)]`.
        if tail.count >= 3, let plus = tail.firstIndex(of: "+"), plus + 1 < tail.endIndex {
            let offset = UInt64(tail[plus + 1])
            let before = tail[tail.startIndex..<plus].joined(separator: " ")
            if tail.startIndex + 1 == plus, let base = parseHex(tail[tail.startIndex]) {
                frame.imageOffset = offset ?? address.subtractingReportingOverflow(base).partialValue
                if offset == nil { return .bad("frame \(index): offset '\(tail[plus + 1].prefix(40))' is not a number") }
            } else {
                frame.symbol = before
                frame.symbolOffset = offset
                // `symbol + 8 (main.swift:12)`: symbolicated logs end with the source position.
                if plus + 2 < tail.endIndex {
                    frame.sourceLocation = sourceLocation(tail[(plus + 2)...].joined(separator: " "))
                }
            }
        } else if !tail.isEmpty {
            var symbol = tail.joined(separator: " ")
            // `symbol (main.swift:12)` without an offset.
            if let open = symbol.lastIndex(of: "("), symbol.hasSuffix(")"), open > symbol.startIndex,
               let location = sourceLocation(String(symbol[open...])) {
                frame.sourceLocation = location
                symbol = String(symbol[..<open].trimmedWhitespace)
            }
            frame.symbol = symbol
        }
        return .frame(frame)
    }

    /// `(main.swift:12)` or `(in a.out) (main.swift:12)` → `main.swift:12`; nil when the
    /// parenthesised text is not a `file:line` position.
    private static func sourceLocation(_ text: String) -> String? {
        guard let open = text.lastIndex(of: "("), text.hasSuffix(")") else { return nil }
        let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard let colon = inner.lastIndex(of: ":"), colon > inner.startIndex,
              inner[inner.index(after: colon)...].first?.isASCIIDigit == true else { return nil }
        return String(inner)
    }

    /// `x0: 0x0000000000000000   x1: 0x…` and `rax: 0x…  rbx: 0x…` → name/value pairs. A
    /// register name is a short word of letters and digits; trailing descriptions
    /// (`esr: 0x92000006 (Data Abort) byte read Translation fault`) are skipped.
    private static func registerPairs(_ line: Substring) -> [(String, Substring)] {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var pairs: [(String, Substring)] = []
        var position = words.startIndex
        while position < words.endIndex {
            let word = words[position]
            if word.hasSuffix(":"), word.count > 1, word.count <= 12, position + 1 < words.endIndex,
               word.dropLast().allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
               word.first?.isLetter == true {
                pairs.append((String(word.dropLast()), words[position + 1]))
                position += 2
            } else {
                position += 1
            }
        }
        return pairs
    }

    /// `0x104544000 - 0x10454ffff icdab_planets arm64  <b6356bad…> /path/to/icdab_planets`.
    private static func imageLine(_ line: Substring) -> CrashBinaryImage? {
        // Split on the bytes: a log lists hundreds of images, and splitting Characters (grapheme
        // breaking) was a third of reading one (`symbolicate --group`'s bench). Space and tab
        // are single bytes in UTF-8, never inside another character's encoding.
        let words = line.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map { Substring($0) }
        guard words.count >= 4, let start = parseHex(words[0]), words[1] == "-", let end = parseHex(words[2]) else { return nil }
        var rest = words[3...]
        var uuid: String?
        var path: String?
        if let uuidWord = rest.firstIndex(where: { $0.utf8.first == UInt8(ascii: "<") && $0.utf8.last == UInt8(ascii: ">") }) {
            uuid = compactIdentifier(rest[uuidWord].dropFirst().dropLast())
            // Most paths are one word: no joining.
            if uuidWord + 1 == rest.endIndex - 1 {
                path = String(rest[uuidWord + 1])
            } else if uuidWord + 1 < rest.endIndex {
                path = rest[(uuidWord + 1)...].joined(separator: " ")
            }
            rest = rest[rest.startIndex..<uuidWord]
        }
        // macOS writes the version after the name: `+a.out (0)`, `libfoo.dylib (1.0 - 1)`.
        if rest.last?.hasSuffix(")") == true, let open = rest.lastIndex(where: { $0.hasPrefix("(") }), open > rest.startIndex {
            rest = rest[rest.startIndex..<open]
        }
        guard !rest.isEmpty else { return nil }
        var nameWords = rest
        var arch: String?
        // iOS writes the architecture after the name (`demo arm64`); names may hold spaces, so
        // only a known architecture word is taken as one.
        if rest.count >= 2, knownArchitectures.contains(String(rest[rest.endIndex - 1])) {
            arch = String(rest[rest.endIndex - 1])
            nameWords = rest.dropLast()
        }
        var name = nameWords.count == 1 ? String(nameWords[nameWords.startIndex]) : nameWords.joined(separator: " ")
        if name.hasPrefix("+") { name.removeFirst() }  // `+` marks images outside the system
        var image = CrashBinaryImage(name: name)
        image.loadAddress = start
        image.endAddress = end
        image.arch = arch
        image.uuid = uuid
        image.path = path
        return image
    }
}

private let knownArchitectures: Set<String> = [
    "arm64", "arm64e", "arm64_32", "armv7", "armv7s", "armv7k", "armv6", "x86_64", "x86_64h", "i386", "ppc", "ppc64",
]
