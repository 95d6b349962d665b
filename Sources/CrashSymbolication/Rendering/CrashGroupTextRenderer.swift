import Diagnostics

/// `symbolicate --group --format text`: a count line, then one block a group, most crashes
/// first: the signature, how many and when, the versions seen, the example log and its
/// crashed thread (up to `maxFrames` lines).
public struct CrashGroupTextRenderer: Sendable {
    public var maxFrames = 12

    public init(maxFrames: Int = 12) { self.maxFrames = maxFrames }

    public func render(_ report: CrashGroupReport) -> String {
        var lines = [Self.headline(report)]
        for (number, group) in report.groups.enumerated() {
            lines.append("")
            lines.append("#\(number + 1)  \(group.count) crash\(group.count == 1 ? "" : "es")  \(group.signature.exception)")
            if !group.signature.frames.isEmpty {
                lines.append("    at " + group.signature.frames.map(\.description).joined(separator: " < "))
            }
            if let when = Self.dates(group) { lines.append("    \(when)") }
            if !group.appVersions.isEmpty { lines.append("    app versions: " + Self.counts(group.appVersions)) }
            if !group.osVersions.isEmpty { lines.append("    OS versions: " + Self.counts(group.osVersions)) }
            lines.append("    formats: " + Self.counts(group.formats))
            lines.append("    example: \(group.example)")
            for frame in group.exampleFrames.prefix(maxFrames) {
                let address = frame.address.map { FrameText.paddedHex($0) } ?? "?"
                var text = frame.function + (frame.offset.map { " + \($0)" } ?? "")
                if let location = frame.location { text += " (\(location))" }
                if frame.inlined { text += " [inlined]" }
                lines.append("      \(String(frame.index).padding(3)) \(frame.image.padding(24)) \(address) \(text)")
            }
            if group.exampleFrames.count > maxFrames { lines.append("      … \(group.exampleFrames.count - maxFrames) more frames") }
        }
        return TerminalText.escapedKeepingLines(lines.joined(separator: "\n") + "\n")
    }

    /// `3 groups from 12 crash logs (2 files skipped: not crash logs; 1 log unreadable)`.
    static func headline(_ report: CrashGroupReport) -> String {
        var text = "\(report.groups.count) group\(report.groups.count == 1 ? "" : "s") from \(report.logs) crash log\(report.logs == 1 ? "" : "s")"
        var notes: [String] = []
        if report.skipped > 0 { notes.append("\(report.skipped) file\(report.skipped == 1 ? "" : "s") skipped: not crash logs") }
        if !report.unreadable.isEmpty { notes.append("\(report.unreadable.count) log\(report.unreadable.count == 1 ? "" : "s") unreadable") }
        if !notes.isEmpty { text += " (" + notes.joined(separator: "; ") + ")" }
        return text
    }

    /// `first 2026-11-01T18:00:00Z, last 2026-11-24T00:00:00Z (1 undated)`.
    static func dates(_ group: CrashGroup) -> String? {
        var parts: [String] = []
        if let first = group.first, let last = group.last { parts.append("first \(first.iso8601), last \(last.iso8601)") }
        if group.undated > 0 { parts.append(parts.isEmpty ? "undated" : "(\(group.undated) undated)") }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// `1.1 (8) ×2, 1.0 (7) ×1`.
    static func counts(_ counts: [String: Int]) -> String {
        CrashGroup.sorted(counts).map { "\($0.name) ×\($0.count)" }.joined(separator: ", ")
    }
}
