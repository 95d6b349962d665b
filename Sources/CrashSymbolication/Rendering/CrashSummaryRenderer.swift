import Diagnostics
import CrashReport

/// The short account: what crashed, why (the decoding rules' words), where (the crashed
/// thread's top frames, inlined calls included), and which images were found.
public struct CrashSummaryRenderer: Sendable {
    public var maxFrames = 12

    public init(maxFrames: Int = 12) { self.maxFrames = maxFrames }

    public func render(_ crash: SymbolicatedCrash) -> String {
        let report = crash.report
        var lines: [String] = []
        var process = report.process ?? "?"
        if let pid = report.processID { process += " [\(pid)]" }
        if let architecture = report.architecture { process += " (\(architecture))" }
        lines.append("process: \(process)")
        if let os = report.osVersion { lines.append("os: \(os)") }
        if let kind = report.kind { lines.append("kind: \(kind)") }
        lines += report.facts
        if let exception = report.exception {
            var text = [exception.type, exception.signal.map { exception.type == nil ? $0 : "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            if let fault = exception.faultAddress { text += (text.isEmpty ? "" : " ") + "at \(FrameText.hex(fault))" }
            lines.append("crash: \(text.isEmpty ? "?" : text)")
            if let reason = exception.reason { lines.append("reason: \(reason)") }
        }
        // A text report's `Termination Reason` is also the exception's reason when nothing
        // else gave one: said once.
        if let termination = report.terminationReason, termination != report.exception?.reason {
            lines.append("termination reason: \(termination)")
        }
        for explanation in TerminationExplanation.lines(for: report) { lines.append("termination: \(explanation)") }
        for line in report.applicationSpecificInformation.prefix(6) { lines.append("message: \(line)") }
        if !crash.decodings.isEmpty {
            lines.append("diagnosis:")
            for decoding in crash.decodings { lines.append("  \(decoding.message)") }
        }
        if let (thread, frames) = crash.crashedThread {
            let name = thread.name.map { " (\($0))" } ?? ""
            lines.append("\(thread.crashed ? "crashed thread" : "thread") \(thread.index)\(name):")
            lines += frameLines(thread.frames, frames, report: report)
        }
        if !report.lastExceptionBacktrace.isEmpty {
            lines.append("last exception backtrace:")
            lines += frameLines(report.lastExceptionBacktrace, crash.lastExceptionBacktrace, report: report)
        }
        lines += imageLines(crash)
        for warning in crash.warnings { lines.append("warning: \(warning)") }
        return TerminalText.escapedKeepingLines(lines.joined(separator: "\n") + "\n")
    }

    private func frameLines(_ logged: [CrashFrame], _ resolved: [SymbolicatedCrashFrame], report: CrashReport) -> [String] {
        var lines: [String] = []
        for (frame, result) in zip(logged, resolved).prefix(maxFrames) {
            let image = result.imageIndex.map { report.binaryImages[$0].name } ?? frame.imageName ?? "???"
            let address = result.address.map { FrameText.paddedHex($0) } ?? "?"
            let head = "  \(String(frame.index).padding(3)) \(image.padding(24)) \(address)"
            guard let symbols = result.symbols else {
                var text = frame.symbol ?? frame.imageOffset.map { "\(image) + \($0)" } ?? ""
                if let offset = frame.symbolOffset, frame.symbol != nil { text += " + \(offset)" }
                if let location = frame.sourceLocation { text += " (\(location))" }
                lines.append("\(head) \(text)")
                continue
            }
            let mark = symbols.verified ? "" : " [unverified]"
            for entry in FrameText.entries(symbols) {
                var text = entry.function
                if let offset = entry.offset { text += " + \(offset)" }
                if let location = FrameText.location(entry.frame) { text += " (\(location))" }
                if entry.isInlined { text += " [inlined]" }
                lines.append("\(head) \(text)\(mark)")
            }
        }
        if logged.count > maxFrames { lines.append("  … \(logged.count - maxFrames) more frames") }
        return lines
    }

    /// Found and mismatched images in full; missing ones only when frames point into them.
    private func imageLines(_ crash: SymbolicatedCrash) -> [String] {
        let report = crash.report
        let framesPerImage = crash.framesPerImage
        var found = 0, mismatched = 0, missing = 0
        var details: [String] = []
        for (index, resolution) in crash.images.enumerated() {
            let image = report.binaryImages[index]
            let identity = image.uuid.map { " \($0)" } ?? ""
            switch resolution.status {
            case .found:
                found += 1
                var text = "  found      \(image.name)\(identity): \(resolution.symbolsPath ?? "")"
                if let binary = resolution.binaryPath, binary != resolution.symbolsPath { text += " (binary \(binary))" }
                if !resolution.verified { text += " [unverified: the log gives no UUID or build-id]" }
                details.append(text)
            case .mismatched(let path, let identifier):
                mismatched += 1
                details.append("  mismatched \(image.name)\(identity): \(path) is \(identifier), not used")
            case .missing:
                missing += 1
                if framesPerImage[index] > 0 {
                    details.append("  missing    \(image.name)\(identity) (\(framesPerImage[index]) frame\(framesPerImage[index] == 1 ? "" : "s"))")
                }
            }
        }
        guard !report.binaryImages.isEmpty else { return [] }
        return ["images: \(found) found, \(mismatched) mismatched, \(missing) missing"] + details
    }
}
