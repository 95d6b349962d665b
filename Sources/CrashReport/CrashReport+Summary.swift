extension CrashReport {
    /// A short plain-text account: process, OS, exception, crashed thread, counts, and the
    /// crashed thread's first frames as the log wrote them (not symbolicated).
    public func summary(maxFrames: Int = 8) -> String {
        var lines: [String] = []
        lines.append("format: \(format.rawValue)")
        lines.append("process: \(process ?? "?")\(processID.map { " [\($0)]" } ?? "")")
        if let osVersion { lines.append("os: \(osVersion)") }
        if let architecture { lines.append("architecture: \(architecture)") }
        if let kind { lines.append("kind: \(kind)") }
        lines += facts
        if let exception {
            var text = exception.type ?? "?"
            if let signal = exception.signal { text += " (\(signal))" }
            if let codes = exception.codes { text += " codes: \(codes)" }
            lines.append("exception: \(text)")
            if let reason = exception.reason { lines.append("reason: \(reason)") }
            if let address = exception.faultAddress { lines.append("fault address: 0x\(String(address, radix: 16))") }
        }
        // A text report's `Termination Reason` is also the exception's reason when nothing
        // else gave one: said once.
        if let terminationReason, terminationReason != exception?.reason { lines.append("termination reason: \(terminationReason)") }
        for explanation in TerminationExplanation.lines(for: self) { lines.append("termination: \(explanation)") }
        for information in applicationSpecificInformation.prefix(maxFrames) {
            lines.append("info: \(information)")
        }
        if applicationSpecificInformation.count > maxFrames {
            lines.append("info: … (\(applicationSpecificInformation.count - maxFrames) more lines)")
        }
        if !lastExceptionBacktrace.isEmpty {
            lines.append("last exception backtrace: \(lastExceptionBacktrace.count) frames")
        }
        lines.append("crashed thread: \(crashedThread.map(String.init) ?? "none")")
        let frameCount = threads.reduce(0) { $0 + $1.frames.count }
        lines.append("threads: \(threads.count), frames: \(frameCount), images: \(binaryImages.count)")
        if let crashed = threads.first(where: \.crashed) {
            lines.append("thread \(crashed.index) (crashed): \(crashed.frames.count) frames, \(crashed.registers.count) registers")
            for frame in crashed.frames.prefix(maxFrames) {
                var text = "  \(frame.index) \(frame.imageName ?? "?")"
                if let address = frame.address { text += " 0x\(String(address, radix: 16))" }
                if let offset = frame.imageOffset { text += " +\(offset)" }
                if let symbol = frame.symbol { text += " \(symbol)" }
                if let offset = frame.symbolOffset { text += " + \(offset)" }
                if let location = frame.sourceLocation { text += " at \(location)" }
                lines.append(text)
            }
            if crashed.frames.count > maxFrames { lines.append("  …") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
