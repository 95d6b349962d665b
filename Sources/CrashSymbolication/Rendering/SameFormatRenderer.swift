import CrashReport
import OrderedCollections
import PropertyList

/// The report in its own format with symbols filled in, as Apple's `symbolicatecrash` does:
/// text logs keep every line and have each symbolicated frame line rewritten (inlined calls
/// become extra lines with the same frame number); `.ips` gets `symbol`, `symbolLocation`,
/// `sourceFile`, `sourceLine` in its frames; MetricKit and KSCrash JSON get members in their
/// frame objects with every other byte kept (`JSONFrameRewriter`). Formats with no text of
/// their own (core dumps, address lists) are listed frame by frame.
public struct SameFormatRenderer: Sendable {
    public init() {}

    public func render(_ crash: SymbolicatedCrash, original: [UInt8]) throws(PlistError) -> [UInt8] {
        switch crash.report.format {
        case .ips: return try IPSRewriter.rewrite(crash, original: original)
        case .metricKit, .kscrash: return JSONFrameRewriter.rewrite(crash, original: original)
        case .coreDump, .addressList: return Array(FrameListRenderer().render(crash).utf8)
        default:
            let rewritten = rewriteLines(crash, original: original)
            return rewritten ?? Array(FrameListRenderer().render(crash).utf8)
        }
    }

    /// nil when no frame knows its line (a JSON Swift backtrace).
    private func rewriteLines(_ crash: SymbolicatedCrash, original: [UInt8]) -> [UInt8]? {
        var byLine: [Int: [(CrashFrame, SymbolicatedCrashFrame)]] = [:]
        for (thread, resolved) in zip(crash.report.threads, crash.threads) {
            for (frame, result) in zip(thread.frames, resolved) { if let line = frame.line { byLine[line, default: []].append((frame, result)) } }
        }
        for (frame, result) in zip(crash.report.lastExceptionBacktrace, crash.lastExceptionBacktrace) {
            if let line = frame.line { byLine[line, default: []].append((frame, result)) }
        }
        guard !byLine.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(original.count + original.count / 2)
        var lineNumber = 0
        var start = 0
        while start < original.count {
            lineNumber += 1
            let newline = original[start...].firstIndex(of: 0x0A)
            let end = newline ?? original.count
            let next = newline.map { $0 + 1 } ?? original.count
            var content = original[start..<end]
            let terminator = original[end..<next]
            var carriageReturn = false
            if content.last == 0x0D { content = content.dropLast(); carriageReturn = true }
            var lines: [String]?
            if let frames = byLine[lineNumber] {
                if frames.count == 1, let (frame, result) = frames.first, let symbols = result.symbols {
                    lines = rewrite(String(decoding: content, as: UTF8.self), frame: frame, symbols: symbols, format: crash.report.format)
                } else if frames.count > 1, frames.contains(where: { $0.1.symbols != nil }) {
                    // `(0x1a2b 0x3c4d …)`: a last exception backtrace written as one line of
                    // addresses becomes a frame list, as symbolicatecrash writes it.
                    lines = frames.flatMap { frameLines($0.0, $0.1, report: crash.report) }
                }
            }
            if let lines {
                for (position, line) in lines.enumerated() {
                    out += line.utf8
                    if carriageReturn { out.append(0x0D) }
                    if position < lines.count - 1 || !terminator.isEmpty { out.append(0x0A) }
                }
            } else {
                out += original[start..<next]
            }
            start = next
        }
        return out
    }

    /// Apple's frame lines for one frame: `3   crashy   	0x0000000104f6c3a8 controller + 12 (crashy.c:20)`,
    /// inlined calls first.
    private func frameLines(_ frame: CrashFrame, _ result: SymbolicatedCrashFrame, report: CrashReport) -> [String] {
        let image = result.imageIndex.map { report.binaryImages[$0].name } ?? frame.imageName ?? "???"
        let head = "\(String(frame.index).padding(4))\(image.padding(30))\t\((result.address ?? frame.address).map { FrameText.paddedHex($0) } ?? "?")"
        guard let symbols = result.symbols else {
            let base = result.imageIndex.flatMap { report.binaryImages[$0].loadAddress }
            if let base, let address = result.address ?? frame.address { return ["\(head) \(FrameText.hex(base)) + \(address &- base)"] }
            return [head]
        }
        return FrameText.entries(symbols).map { entry in
            let location = FrameText.location(entry.frame, column: false).map { " (\($0))" } ?? ""
            return "\(head) \(entry.function)\(entry.offset.map { " + \($0)" } ?? "")\(location)\(entry.isInlined ? " [inlined]" : "")"
                + (symbols.verified ? "" : " [unverified]")
        }
    }

    /// The frame line with its symbol part replaced: everything up to and including the
    /// address is kept; nil when the line has no address to anchor on.
    private func rewrite(_ line: String, frame: CrashFrame, symbols: CrashFrameSymbols, format: CrashReport.Format) -> [String]? {
        guard let address = Self.addressRange(in: line) else { return nil }
        let prefix = line[..<address.upperBound]
        let rest = line[address.upperBound...]
        // Sanitizer lines end with `(module+0xoffset)`, kept as written.
        let moduleTail = format == .sanitizer ? rest.firstIndex(of: "(").map { " " + rest[$0...] } ?? "" : ""
        let mark = symbols.verified ? "" : " [unverified]"
        return FrameText.entries(symbols).map { entry in
            var text: String
            let location = FrameText.location(entry.frame, fullPath: format != .appleText, column: format != .appleText)
            switch format {
            case .swiftBacktrace:
                text = entry.function + (entry.offset.map { " + \($0)" } ?? "")
                if let image = frame.imageName { text += " in \(image)" }
                if let location { text += " at \(location)" }
            case .sanitizer:
                text = "in " + entry.function + (location.map { " \($0)" } ?? "")
            default:
                text = entry.function + (entry.offset.map { " + \($0)" } ?? "") + (location.map { " (\($0))" } ?? "")
            }
            return "\(prefix) \(text)\(entry.isInlined ? " [inlined]" : "")\(mark)\(moduleTail)"
        }
    }

    /// The first `0x…` word after the frame number.
    static func addressRange(in line: String) -> Range<String.Index>? {
        guard let start = line.firstRange(of: "0x")?.lowerBound else { return nil }
        let end = line[start...].firstIndex(where: { $0 == " " || $0 == "\t" }) ?? line.endIndex
        return start..<end
    }
}
