/// Reads a sanitizer report (AddressSanitizer, ThreadSanitizer, LeakSanitizer,
/// UndefinedBehaviorSanitizer) as compiler-rt prints it.
///
/// Hand-written: compiler-rt's report layout has no machine-readable twin and no parser in
/// Swift. Each stack becomes a thread named after the line that introduces it (`READ of size
/// 4 at 0x… thread T0`, `freed by thread T0 here:`, `previously allocated by thread T0
/// here:`); the first one is the crashed thread. Frames:
///
///     #0 0x55d0c0a1b2c3 in main /src/a.c:12:5
///     #1 0x7f… in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x2724a)
///     #2 0x… (/path/bin+0x1234) (BuildId: 93ac…)        (symbolize=0)
///     #0 Thread1 /tmp/race.c:5:10 (race+0x1234)           (ThreadSanitizer: no address)
///
/// compiler-rt prints every frame's address already moved back into the call instruction
/// (`GetPreviousInstructionPc`), so no frame is marked as a return address.
enum SanitizerReportReader {
    static func read(_ bytes: ArraySlice<UInt8>) throws(CrashReportError) -> CrashReportDocument {
        var report = CrashReport(format: .sanitizer)
        var recognised = false
        var current: Int?        // position of the stack being read, in report.threads
        var pendingName: String? // the line before a stack names it
        var skippedStacks = 0
        var frameCap = FrameCap()
        var imagePositions: [String: Int] = [:]

        var log = LogReading(bytes)
        while let trimmed = log.nextLine() {
            if trimmed.isEmpty {
                current = nil
                continue
            }
            if trimmed.hasPrefix("#"), trimmed.dropFirst().first?.isASCIIDigit == true {
                if current == nil {
                    guard report.threads.count < CrashReportLimits.maxThreads else {
                        skippedStacks += 1
                        pendingName = nil
                        continue
                    }
                    let index = report.threads.count
                    report.threads.append(CrashThread(index: index, name: pendingName, crashed: index == 0))
                    if index == 0 { report.crashedThread = 0 }
                    current = index
                    pendingName = nil
                }
                guard let position = current else { continue }
                guard frameCap.admits(report.threads[position], position: position, named: "stack \(position)", warn: { log.warn($0) }) else { continue }
                switch frameLine(trimmed) {
                case .frame(var frame, let module):
                    frame.line = log.lineNumber
                    if let module {
                        if let known = imagePositions[module.path] {
                            if report.binaryImages[known].uuid == nil { report.binaryImages[known].uuid = module.buildID }
                        } else if report.binaryImages.count < CrashReportLimits.maxBinaryImages {
                            var image = CrashBinaryImage(name: frame.imageName ?? module.path)
                            image.path = module.path
                            image.uuid = module.buildID
                            imagePositions[module.path] = report.binaryImages.count
                            report.binaryImages.append(image)
                        }
                    }
                    report.threads[position].frames.append(frame)
                case .bad(let reason):
                    log.warn(reason)
                }
                continue
            }
            current = nil
            if header(trimmed, into: &report) {
                recognised = true
                continue
            }
            // Any other line may introduce the next stack: `READ of size 4 at 0x… thread T0`
            // (after the ERROR line), `freed by thread T0 here:`.
            pendingName = String((trimmed.hasSuffix(":") ? trimmed.dropLast() : trimmed).trimmedWhitespace.prefix(200))
        }
        guard recognised else {
            throw CrashReportError(line: nil, message: "not a sanitizer report (no ==PID==ERROR: …Sanitizer, WARNING: ThreadSanitizer, runtime error or SUMMARY line found)")
        }
        if skippedStacks > 0 {
            log.warnAboutLog("\(skippedStacks) stacks beyond \(CrashReportLimits.maxThreads) skipped")
        }
        // The program: the image of the outermost frame of the first stack (`_start`, `main`).
        if let image = report.threads.first?.frames.last(where: { $0.imageName != nil })?.imageName,
           let found = report.binaryImages.first(where: { $0.name == image }) {
            report.process = found.name
            report.path = found.path
        }
        return CrashReportDocument(report: report, warnings: log.warnings)
    }

    /// The report's own lines: `==1234==ERROR: AddressSanitizer: heap-use-after-free on address
    /// 0x… at pc …`, `WARNING: ThreadSanitizer: data race (pid=1)`, `a.c:3:5: runtime error:
    /// …`, `SUMMARY: AddressSanitizer: heap-use-after-free /src/a.c:5:10 in main`. True when
    /// the line is one of them.
    private static func header(_ line: Substring, into report: inout CrashReport) -> Bool {
        var text = line
        if text.hasPrefix("==") {
            // `==1234==`
            let digits = text.dropFirst(2).prefix(while: \.isASCIIDigit)
            guard !digits.isEmpty, text.dropFirst(2 + digits.count).hasPrefix("==") else { return false }
            if report.processID == nil { report.processID = Int64(digits.prefix(18)) }
            text = text.dropFirst(4 + digits.count)
        }
        if text.hasPrefix("ERROR: ") || text.hasPrefix("WARNING: ") {
            let body = text.drop(while: { $0 != " " }).dropFirst()
            guard let colon = body.firstIndex(of: ":"), body[..<colon].hasSuffix("Sanitizer") else { return false }
            var exception = report.exception ?? CrashException()
            exception.type = String(body[..<colon])
            let description = body[body.index(after: colon)...].trimmedWhitespace
            if exception.reason == nil { exception.reason = String(description) }
            if let on = description.firstRange(of: " address ") {
                let word = description[on.upperBound...].prefix(while: { !$0.isWhitespace })
                if word.hasPrefix("0x") { exception.faultAddress = parseHex(word) }
            }
            if description.hasPrefix("SEGV") { exception.signal = "SIGSEGV" }
            else if description.hasPrefix("BUS") { exception.signal = "SIGBUS" }
            else if description.hasPrefix("FPE") { exception.signal = "SIGFPE" }
            else if description.hasPrefix("ILL") { exception.signal = "SIGILL" }
            if let pid = description.firstRange(of: "(pid=") {
                let digits = description[pid.upperBound...].prefix(while: \.isASCIIDigit)
                if report.processID == nil { report.processID = Int64(digits.prefix(18)) }
            }
            report.exception = exception
            return true
        }
        if text.hasPrefix("SUMMARY: ") {
            let body = text.dropFirst(9)
            guard let colon = body.firstIndex(of: ":"), body[..<colon].hasSuffix("Sanitizer") else { return false }
            var exception = report.exception ?? CrashException()
            if exception.type == nil { exception.type = String(body[..<colon]) }
            exception.reason = String(body[body.index(after: colon)...].trimmedWhitespace)
            report.exception = exception
            return true
        }
        if let range = text.firstRange(of: ": runtime error: ") {
            // UBSan: `a.c:3:5: runtime error: signed integer overflow: …`
            var exception = report.exception ?? CrashException()
            if exception.type == nil { exception.type = "UndefinedBehaviorSanitizer" }
            if exception.reason == nil { exception.reason = String(text[range.upperBound...]) }
            report.exception = exception
            if report.applicationSpecificInformation.count < CrashReportLimits.maxInformationLines {
                report.applicationSpecificInformation.append(String(text))
            }
            return true
        }
        return false
    }

    struct Module {
        var path: String
        var buildID: String?
    }

    private enum FrameParse {
        case frame(CrashFrame, Module?)
        case bad(String)
    }

    /// One `#N …` line (see the type's comment for the forms).
    private static func frameLine(_ line: Substring) -> FrameParse {
        let digits = line.dropFirst().prefix(while: \.isASCIIDigit)
        guard digits.count < 10, let index = Int(digits) else { return .bad("frame number '\(digits.prefix(20))' is too long") }
        var frame = CrashFrame(index: index)
        var rest = line.dropFirst(1 + digits.count).trimmedWhitespace
        var module: Module?
        if rest.hasPrefix("0x") {
            let word = rest.prefix(while: { !$0.isWhitespace })
            guard let address = parseHex(word) else {
                return .bad("frame \(index): '\(word.prefix(40))' is not a hexadecimal address")
            }
            frame.address = address
            rest = rest.dropFirst(word.count).trimmedWhitespace
        }
        // `(BuildId: 93ac…)` at the end.
        if rest.hasSuffix(")"), let open = rest.ranges(of: "(BuildId: ").last {
            let id = rest[open.upperBound..<rest.index(before: rest.endIndex)]
            if id.allSatisfy(\.isHexDigit) { module = Module(path: "", buildID: id.lowercased()) }
            rest = rest[..<open.lowerBound].trimmedWhitespace
        }
        // `(/path/bin+0x1234)` at the end: the module and the offset into it.
        if rest.hasSuffix(")"), let open = rest.lastIndex(of: "("),
           let plus = rest[open...].lastIndex(of: "+") {
            let path = rest[rest.index(after: open)..<plus]
            let offsetText = rest[rest.index(after: plus)..<rest.index(before: rest.endIndex)]
            if let offset = parseHex(offsetText), !path.isEmpty {
                frame.imageOffset = offset
                frame.imageName = String(path.split(separator: "/").last ?? path)
                module = Module(path: String(path), buildID: module?.buildID)
                rest = rest[..<open].trimmedWhitespace
            }
        }
        if module?.path.isEmpty == true { module = nil }
        if rest.hasPrefix("in ") { rest = rest.dropFirst(3).trimmedWhitespace }
        // `main /src/a.c:12:5`: the source position ends `:N` or `:N:M`. An absolute path may
        // hold spaces (`/src/a b/a.c:3`), so it starts at the first ` /` whose rest is a
        // position; otherwise (relative paths) the position is the last word.
        if let last = rest.lastIndex(of: " "), isSourcePosition(rest[rest.index(after: last)...]) {
            let space = rest.firstRange(of: " /").map(\.lowerBound) ?? last
            frame.sourceLocation = String(rest[rest.index(after: space)...])
            rest = rest[..<space].trimmedWhitespace
        }
        if !rest.isEmpty, rest != "<null>" { frame.symbol = String(rest) }
        return .frame(frame, module)
    }

    /// `/src/a.c:12`, `/src/a.c:12:5`.
    private static func isSourcePosition(_ word: Substring) -> Bool {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, !parts[0].isEmpty else { return false }
        let numbers = parts.count >= 3 && parts[parts.count - 2].allSatisfy(\.isASCIIDigit) && !parts[parts.count - 2].isEmpty ? 2 : 1
        return parts.suffix(numbers).allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
    }
}
