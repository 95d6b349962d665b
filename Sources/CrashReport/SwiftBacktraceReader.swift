/// Reads the Swift runtime's crash report on Linux (`SWIFT_BACKTRACE=enable=yes`), as text or
/// `format=json`, symbolicated or not (`symbolicate=off`).
///
/// Hand-written for the text form: the runtime's layout is documented only by its source
/// (swift/stdlib/public/RuntimeModule/modules/…/Backtracer), so the reader is line based and
/// lenient like the Apple text reader: unknown lines are skipped, damaged ones become
/// warnings with their line. The JSON form goes through PropertyList's JSON reader.
///
/// Text layout:
///
///     crashdemo/main.swift:12: Fatal error: Something went badly wrong
///     *** Signal 11: Backtracing from 0x55aac37dc964... done ***
///     *** Program crashed: Bad pointer dereference at 0x0000000000000004 ***
///     Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))
///     Thread 0 "crashdemo" crashed:
///       0      0x000055aac37dc964 level3(_:) + 180 in crashdemo at /src/main.swift:3:13
///       1 [ra] 0x000055aac37dc25b level2(_:) + 58 in crashdemo at /src/main.swift:6:39
///     ...
///     Registers:
///     rax 0x0000000000000004  4
///     Images (14 omitted):
///     0x000055aac37db000–0x000055aac37dcca8 1d689bf0… crashdemo /src/CrashDemo/crashdemo
enum SwiftBacktraceReader {
    private enum Section {
        case preamble
        case thread(Int)
        case registers
        case images
        case other
    }

    static func read(_ bytes: ArraySlice<UInt8>) throws(CrashReportError) -> CrashReportDocument {
        // `format=json`: the runtime still writes its `*** Signal …` line (and any `Fatal
        // error:` message) before the one-line JSON object. Other `{` lines (the program's own
        // output) are not it.
        // Without a `"kind": "crashReport"` line, the first `{` line before any text-form line
        // (`Platform:`, `Thread …`, `*** Program crashed:`) is taken for the object.
        var lineNumber = 0
        var firstObjectLine: Int?
        for rawLine in Lines(bytes) {
            lineNumber += 1
            if CrashReportParser.isSwiftJSON(rawLine) {
                return try SwiftBacktraceJSONReader.read(bytes, jsonLine: lineNumber)
            }
            if rawLine.first == UInt8(ascii: "{"), firstObjectLine == nil { firstObjectLine = lineNumber }
            if rawLine.starts(with: Array("Thread ".utf8)) || rawLine.starts(with: Array("Platform:".utf8))
                || rawLine.starts(with: Array("*** Program crashed:".utf8)) {
                return try readText(bytes)
            }
        }
        if let firstObjectLine { return try SwiftBacktraceJSONReader.read(bytes, jsonLine: firstObjectLine) }
        return try readText(bytes)
    }

    static func readText(_ bytes: ArraySlice<UInt8>) throws(CrashReportError) -> CrashReportDocument {
        var report = CrashReport(format: .swiftBacktrace)
        var section = Section.preamble
        var recognised = false
        var skippedThreads = 0
        var frameCap = FrameCap()
        var imagesCut = false

        var log = LogReading(bytes)
        while let trimmed = log.nextLine() {
            if trimmed.isEmpty { continue }

            if trimmed.hasPrefix("*** ") {
                if crashLine(trimmed, into: &report) { recognised = true }
                continue
            }
            if trimmed.hasPrefix("Platform:") {
                recognised = true
                // `x86_64 Linux (Debian GNU/Linux 12 (bookworm))`
                let value = trimmed.dropFirst("Platform:".count).trimmedWhitespace
                if let space = value.firstIndex(of: " ") {
                    report.architecture = String(value[..<space])
                    report.osVersion = String(value[space...].trimmedWhitespace)
                } else {
                    report.architecture = String(value)
                }
                section = .other
                continue
            }
            if let (index, name, crashed) = threadStart(trimmed) {
                recognised = true
                if report.threads.count >= CrashReportLimits.maxThreads {
                    skippedThreads += 1
                    section = .other
                    continue
                }
                report.threads.append(CrashThread(index: index, name: name, crashed: crashed))
                if crashed, report.crashedThread == nil { report.crashedThread = index }
                section = .thread(report.threads.count - 1)
                continue
            }
            if trimmed == "Registers:" {
                section = .registers
                continue
            }
            if trimmed.hasPrefix("Images") && trimmed.hasSuffix(":") {
                // `Images:` or `Images (14 omitted):` (only the images frames mention are listed).
                recognised = true
                section = .images
                continue
            }
            if trimmed.hasPrefix("Backtrace took") {
                section = .other
                continue
            }

            switch section {
            case .preamble:
                // Messages the runtime printed before crashing: `file:12: Fatal error: …`,
                // `Precondition failed`, `Assertion failed`.
                if trimmed.contains("Fatal error:") || trimmed.contains("Precondition failed") || trimmed.contains("Assertion failed") {
                    if report.applicationSpecificInformation.count < CrashReportLimits.maxInformationLines {
                        report.applicationSpecificInformation.append(String(trimmed))
                    }
                }
            case .thread(let position):
                if trimmed == "..." || trimmed.hasSuffix(" ...") { continue }  // truncated backtrace
                if let first = trimmed.first, first.isASCIIDigit {
                    guard frameCap.admits(report.threads[position], position: position, named: "thread \(report.threads[position].index)", warn: { log.warn($0) }) else { continue }
                    switch frameLine(trimmed) {
                    case .frame(var frame):
                        frame.line = log.lineNumber
                        report.threads[position].frames.append(frame)
                    case .bad(let reason): log.warn(reason)
                    }
                } else {
                    // `registers=all` prints the registers under the thread, before its frames.
                    appendRegisters(trimmed, to: &report.threads[position].registers)
                }
            case .registers:
                let target = report.threads.firstIndex(where: \.crashed) ?? report.threads.indices.last
                if let target {
                    appendRegisters(trimmed, to: &report.threads[target].registers)
                }
            case .images:
                guard report.binaryImages.count < CrashReportLimits.maxBinaryImages else {
                    if !imagesCut {
                        imagesCut = true
                        log.warn("more than \(CrashReportLimits.maxBinaryImages) images; the rest are skipped")
                    }
                    continue
                }
                if let image = imageLine(trimmed) {
                    report.binaryImages.append(image)
                } else {
                    log.warn("not an image line: '\(trimmed.prefix(60))'")
                }
            case .other:
                continue
            }
        }
        guard recognised else {
            throw CrashReportError(line: nil, message: "not a Swift runtime backtrace (no *** Program crashed:, Platform:, Thread or Images line found)")
        }
        if skippedThreads > 0 {
            log.warnAboutLog("\(skippedThreads) threads beyond \(CrashReportLimits.maxThreads) skipped")
        }
        finish(&report)
        return CrashReportDocument(report: report, warnings: log.warnings)
    }

    /// Fills what follows from the rest: the process from the main thread's name (Linux
    /// thread names are the first 15 bytes of the executable's), frames' image offsets.
    static func finish(_ report: inout CrashReport) {
        if report.crashedThread == nil, let crashed = report.threads.first(where: \.crashed) {
            report.crashedThread = crashed.index
        }
        if let mainName = report.threads.first(where: { $0.index == 0 })?.name ?? report.threads.first?.name, !mainName.isEmpty {
            if let image = report.binaryImages.first(where: { $0.name == mainName || ($0.name.hasPrefix(mainName) && mainName.utf8.count == 15) }) {
                report.process = image.name
                report.path = image.path
            } else {
                report.process = mainName
            }
        }
        let map = BinaryImageMap(report.binaryImages)
        for thread in report.threads.indices {
            for frame in report.threads[thread].frames.indices {
                let current = report.threads[thread].frames[frame]
                guard let address = current.address, let position = map.image(of: current),
                      case let found = report.binaryImages[position],
                      current.imageName == nil || current.imageName == found.name,
                      let base = found.loadAddress else { continue }
                report.threads[thread].frames[frame].imageName = found.name
                report.threads[thread].frames[frame].imageOffset = address - base
            }
        }
    }

    /// `*** Signal 11: Backtracing from 0x…... done ***`,
    /// `*** Program crashed: Bad pointer dereference at 0x0000000000000004 ***`.
    private static func crashLine(_ line: Substring, into report: inout CrashReport) -> Bool {
        var body = line.dropFirst(4)
        if body.hasSuffix(" ***") { body = body.dropLast(4) }
        if body.hasPrefix("Signal ") {
            let number = body.dropFirst(7).prefix(while: \.isASCIIDigit)
            guard let value = Int(number.prefix(4)) else { return false }
            var exception = report.exception ?? CrashException()
            exception.signal = signalName(value)
            report.exception = exception
            return true
        }
        if body.hasPrefix("Program crashed: ") {
            let description = body.dropFirst("Program crashed: ".count)
            var exception = report.exception ?? CrashException()
            if let at = description.ranges(of: " at 0x").last {
                exception.reason = String(description[..<at.lowerBound])
                exception.faultAddress = parseHex(description[description.index(at.upperBound, offsetBy: -2)...].trimmedWhitespace)
            } else {
                exception.reason = String(description)
            }
            report.exception = exception
            return true
        }
        return false
    }

    /// Linux signal numbers (x86_64 and arm64 agree on these) → names.
    static func signalName(_ number: Int) -> String {
        switch number {
        case 1: "SIGHUP"
        case 2: "SIGINT"
        case 3: "SIGQUIT"
        case 4: "SIGILL"
        case 5: "SIGTRAP"
        case 6: "SIGABRT"
        case 7: "SIGBUS"
        case 8: "SIGFPE"
        case 9: "SIGKILL"
        case 10: "SIGUSR1"
        case 11: "SIGSEGV"
        case 12: "SIGUSR2"
        case 13: "SIGPIPE"
        case 14: "SIGALRM"
        case 15: "SIGTERM"
        case 31: "SIGSYS"
        default: "signal \(number)"
        }
    }

    /// `Thread 0 "crashdemo" crashed:`, `Thread 2 "-qos.overcommit":`, `Thread 1:`.
    private static func threadStart(_ line: Substring) -> (Int, String?, Bool)? {
        guard line.hasPrefix("Thread "), line.hasSuffix(":") else { return nil }
        let rest = line.dropFirst(7)
        let digits = rest.prefix(while: \.isASCIIDigit)
        guard !digits.isEmpty, digits.count < 10, let index = Int(digits) else { return nil }
        var after = rest.dropFirst(digits.count).dropLast()  // without the colon
        var name: String?
        if after.hasPrefix(" \""), let close = after.dropFirst(2).lastIndex(of: "\"") {
            name = String(after[after.index(after.startIndex, offsetBy: 2)..<close])
            after = after[after.index(after: close)...]
        }
        let crashed = after.trimmedWhitespace == "crashed"
        guard crashed || after.trimmedWhitespace.isEmpty else { return nil }
        return (index, name, crashed)
    }

    private enum FrameParse {
        case frame(CrashFrame)
        case bad(String)
    }

    /// `1 [ra] [system] 0x00007f… symbol + 58 in image at /path/file.swift:6:39`; the part
    /// after the address is absent with `symbolicate=off`.
    private static func frameLine(_ line: Substring) -> FrameParse {
        let digits = line.prefix(while: \.isASCIIDigit)
        guard digits.count < 10, let index = Int(digits) else { return .bad("frame number '\(digits.prefix(20))' is too long") }
        var frame = CrashFrame(index: index)
        var rest = line.dropFirst(digits.count).trimmedWhitespace
        // Markers: `[ra]` return address, `[async]` async resume point (also a return
        // address for lookup), `[system]`, `[inlined]`, `[thunk]`.
        while rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { break }
            let marker = rest[rest.index(after: rest.startIndex)..<close]
            if marker == "ra" || marker == "async" { frame.isReturnAddress = true }
            rest = rest[rest.index(after: close)...].trimmedWhitespace
        }
        let addressWord = rest.prefix(while: { !$0.isWhitespace })
        guard let address = parseHex(addressWord), addressWord.hasPrefix("0x") else {
            return .bad("frame \(index): '\(addressWord.prefix(40))' is not a hexadecimal address")
        }
        frame.address = address
        let description = rest.dropFirst(addressWord.count).trimmedWhitespace
        if !description.isEmpty { symbolicated(description, into: &frame) }
        return .frame(frame)
    }

    /// `closure #1 in f() + 623 in libswiftCore.so at /src/a.swift:3:13` → symbol `closure #1
    /// in f()`, offset 623, image, source location. Symbols hold ` in ` themselves, so the
    /// image is the last ` in WORD` that ends the line or precedes ` at `.
    static func symbolicated(_ text: Substring, into frame: inout CrashFrame) {
        var symbolPart = text
        for found in text.ranges(of: " in ").reversed() {
            let after = text[found.upperBound...]
            let word = after.prefix(while: { $0 != " " })
            let tail = after.dropFirst(word.count)
            if !word.isEmpty, tail.isEmpty || tail.hasPrefix(" at ") {
                frame.imageName = String(word)
                if tail.hasPrefix(" at ") { frame.sourceLocation = String(tail.dropFirst(4)) }
                symbolPart = text[..<found.lowerBound]
                break
            }
        }
        if let plus = symbolPart.ranges(of: " + ").last,
           let offset = UInt64(symbolPart[plus.upperBound...]) {
            frame.symbolOffset = offset
            symbolPart = symbolPart[..<plus.lowerBound]
        }
        if symbolPart != "<unknown>", !symbolPart.isEmpty { frame.symbol = String(symbolPart) }
    }

    /// `rax 0x0000000000000004  4`, `rdx 0x00007ffc…  db 89 94 …` (memory dump),
    /// `cs 0x0033  fs 0x0000  gs 0x0000` (several on a line).
    private static func appendRegisters(_ line: Substring, to registers: inout [CrashRegister]) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var position = words.startIndex
        while position + 1 < words.endIndex, registers.count < CrashReportLimits.maxRegisters {
            let name = words[position], value = words[position + 1]
            guard name.count <= 12, name.first?.isLetter == true,
                  name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
                  value.hasPrefix("0x"), let number = parseHex(value) else { break }
            registers.append(CrashRegister(name: String(name), value: number))
            position += 2
        }
    }

    /// `0x000055aa…000–0x000055aa…ca8 1d689bf0… crashdemo /src/CrashDemo/crashdemo`: start and
    /// end (an EN DASH, U+2013, between them; `-` accepted too), build-id (or `<no build ID>`),
    /// name, path (may hold spaces).
    static func imageLine(_ line: Substring) -> CrashBinaryImage? {
        guard let dash = line.firstIndex(where: { $0 == "\u{2013}" || $0 == "-" }),
              let start = parseHex(line[..<dash].trimmedWhitespace) else { return nil }
        var rest = line[line.index(after: dash)...]
        let endWord = rest.prefix(while: { !$0.isWhitespace })
        guard let end = parseHex(endWord) else { return nil }
        rest = rest.dropFirst(endWord.count).trimmedWhitespace
        var uuid: String?
        if rest.hasPrefix("<") {
            guard let close = rest.firstIndex(of: ">") else { return nil }
            rest = rest[rest.index(after: close)...].trimmedWhitespace
        } else {
            let id = rest.prefix(while: { !$0.isWhitespace })
            guard !id.isEmpty, id.allSatisfy(\.isHexDigit) else { return nil }
            uuid = id.lowercased()
            rest = rest.dropFirst(id.count).trimmedWhitespace
        }
        let name = rest.prefix(while: { !$0.isWhitespace })
        guard !name.isEmpty else { return nil }
        var image = CrashBinaryImage(name: String(name))
        image.uuid = uuid
        image.loadAddress = start
        image.endAddress = end
        let path = rest.dropFirst(name.count).trimmedWhitespace
        if !path.isEmpty, path != "<unknown>" { image.path = String(path) }
        return image
    }
}
