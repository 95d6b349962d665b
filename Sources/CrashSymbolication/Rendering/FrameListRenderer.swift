import Diagnostics
import CrashReport
import OrderedCollections
import PropertyList

/// Frames listed thread by thread, for formats without text of their own.
struct FrameListRenderer {
    func render(_ crash: SymbolicatedCrash) -> String {
        var lines: [String] = []
        let report = crash.report
        for (thread, resolved) in zip(report.threads, crash.threads) {
            lines.append("Thread \(thread.index)\(thread.name.map { " \"\($0)\"" } ?? "")\(thread.crashed ? " crashed" : ""):")
            for (frame, result) in zip(thread.frames, resolved) {
                let image = result.imageIndex.map { report.binaryImages[$0].name } ?? frame.imageName ?? "???"
                let address = (result.address ?? frame.address).map { FrameText.paddedHex($0) } ?? "?"
                let head = "#\(String(frame.index).padding(3)) \(address) \(image.padding(20))"
                guard let symbols = result.symbols else {
                    lines.append("\(head) \(frame.symbol ?? "??")")
                    continue
                }
                for entry in FrameText.entries(symbols) {
                    var text = entry.function + (entry.offset.map { " + \($0)" } ?? "")
                    if let location = FrameText.location(entry.frame, fullPath: true) { text += " at \(location)" }
                    lines.append("\(head) \(text)\(entry.isInlined ? " [inlined]" : "")\(symbols.verified ? "" : " [unverified]")")
                }
            }
            lines.append("")
        }
        return TerminalText.escapedKeepingLines(lines.joined(separator: "\n"))
    }
}
