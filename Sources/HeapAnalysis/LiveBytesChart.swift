import PropertyList

/// Live bytes over the run with the generation marks, from a timeline's points: a few lines
/// of block characters for a terminal, or an inline SVG line chart for the page. The x axis
/// is time when the recording has CLOCK records, else sequence numbers.
public struct LiveBytesChart: Sendable {
    public struct Sample: Sendable, Equatable {
        /// Seconds since the start, or a sequence number (`inSeconds` false).
        public var x: Double
        public var seq: UInt64
        public var bytes: UInt64
        public var blocks: Int
        /// The generation the sample lies in.
        public var generation: Int
    }

    public struct Mark: Sendable, Equatable {
        public var x: Double
        public var seq: UInt64
        public var generation: Int
        public var label: String
    }

    /// Generation marks an SVG chart draws at most.
    public static let maximumDrawnMarks = 200

    public var samples: [Sample]
    public var marks: [Mark]
    public var peak: HeapTimeline.Peak
    /// The peak's x.
    public var peakX: Double
    public var inSeconds: Bool
    /// The largest x drawn (the last sample or mark).
    public var end: Double

    /// - Parameter time: seconds since the start of `seq`, nil when the recording has no times.
    public init(_ timeline: HeapTimeline, time: (UInt64) -> Double?) {
        inSeconds = time(0) != nil
        func x(_ seq: UInt64) -> Double { time(seq) ?? Double(seq) }
        let starts = timeline.generations.map(\.mark.seq)
        samples = timeline.points.map { point in
            // The last generation starting at or before the point.
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= point.seq { low = middle + 1 } else { high = middle }
            }
            return Sample(x: x(point.seq), seq: point.seq, bytes: point.bytes, blocks: point.blocks, generation: max(low - 1, 0))
        }
        marks = timeline.generations.map { Mark(x: x($0.mark.seq), seq: $0.mark.seq, generation: $0.index, label: $0.mark.label) }
        peak = timeline.peak
        peakX = x(timeline.peak.seq)
        end = max(samples.last?.x ?? 0, marks.last?.x ?? 0)
    }

    /// `1.234 s` or `seq 1234`.
    public func describe(_ x: Double) -> String {
        inSeconds ? formatSeconds(x) : "seq \(Int(x))"
    }

    /// The highest level in each of `width` equal slices of the x axis; a slice without a
    /// sample keeps the level of the one before.
    func columns(_ width: Int) -> [UInt64] {
        var columns = [UInt64](repeating: 0, count: width)
        var seen = [Bool](repeating: false, count: width)
        let span = max(end, 1e-12)
        for sample in samples {
            let column = min(Int(sample.x / span * Double(width)), width - 1)
            columns[column] = max(columns[column], sample.bytes)
            seen[column] = true
        }
        var level: UInt64 = 0
        for column in 0..<width {
            if seen[column] {
                level = samples.last { min(Int($0.x / span * Double(width)), width - 1) == column }?.bytes ?? columns[column]
            } else {
                columns[column] = level
            }
        }
        return columns
    }

    /// A chart of `height` lines of eighth blocks, `width` columns, the marks (`^`) below.
    public func text(width: Int = 64, height: Int = 4) -> String {
        guard peak.bytes > 0, width > 0, height > 0 else { return "live bytes: nothing was alive\n" }
        let levels = columns(width)
        let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let top = formatBytes(peak.bytes), bottom = "0 B"
        let labelWidth = max(top.count, bottom.count)
        func pad(_ text: String) -> String { String(repeating: " ", count: labelWidth - text.count) + text }
        var out = ""
        for row in stride(from: height - 1, through: 0, by: -1) {
            var line = row == height - 1 ? pad(top) + " ┤" : String(repeating: " ", count: labelWidth) + " │"
            for level in levels {
                let eighths = Int((Double(level) / Double(peak.bytes) * Double(height * 8)).rounded())
                // Anything alive shows at least the lowest block.
                let fill = max(min(eighths - row * 8, 8), row == 0 && level > 0 ? 1 : 0)
                line.append(blocks[max(fill, 0)])
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        out += pad(bottom) + " └" + String(repeating: "─", count: width) + "\n"
        var markLine = [Character](repeating: " ", count: width)
        let span = max(end, 1e-12)
        for mark in marks where mark.generation > 0 {
            markLine[min(Int(mark.x / span * Double(width)), width - 1)] = "^"
        }
        let marksText = String(markLine)
        if marksText.contains("^") {
            var line = String(repeating: " ", count: labelWidth + 2) + marksText
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        let left = describe(0), right = describe(end)
        let gap = max(width - left.count - right.count, 1)
        out += String(repeating: " ", count: labelWidth + 2) + left + String(repeating: " ", count: gap) + right + "\n"
        return out
    }

    /// An inline SVG line chart (`width` × `height` user units) with the marks as dashed lines
    /// and the peak as a dot; every label from the recording escaped.
    public func svg(id: String, width: Int = 1000, height: Int = 180) -> String {
        let (left, right, top, bottom) = (70.0, 20.0, 14.0, 24.0)
        let plotWidth = Double(width) - left - right, plotHeight = Double(height) - top - bottom
        let span = max(end, 1e-12), ceiling = Double(max(peak.bytes, 1))
        func px(_ x: Double) -> String { format(left + x / span * plotWidth) }
        func py(_ bytes: UInt64) -> String { format(top + plotHeight * (1 - Double(bytes) / ceiling)) }
        var out = "<svg class=\"timeline\" id=\"\(MarkupText.escape(id))\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" "
        out += "role=\"img\" aria-label=\"live bytes over time\">\n"
        out += "<line class=\"axis\" x1=\"\(format(left))\" y1=\"\(py(0))\" x2=\"\(format(left + plotWidth))\" y2=\"\(py(0))\"/>\n"
        out += "<line class=\"axis\" x1=\"\(format(left))\" y1=\"\(format(top))\" x2=\"\(format(left))\" y2=\"\(py(0))\"/>\n"
        out += "<text x=\"\(format(left - 6))\" y=\"\(format(top + 4))\" text-anchor=\"end\">\(formatBytes(peak.bytes))</text>\n"
        out += "<text x=\"\(format(left - 6))\" y=\"\(py(0))\" text-anchor=\"end\">0 B</text>\n"
        out += "<text x=\"\(format(left))\" y=\"\(height - 6)\">\(MarkupText.escape(describe(0)))</text>\n"
        out += "<text x=\"\(format(left + plotWidth))\" y=\"\(height - 6)\" text-anchor=\"end\">\(MarkupText.escape(describe(end)))</text>\n"
        // At most `maximumDrawnMarks` marks, evenly chosen: a page stays bounded however many
        // generations the recording has.
        let drawn = marks.dropFirst()
        let step = max((drawn.count + Self.maximumDrawnMarks - 1) / Self.maximumDrawnMarks, 1)
        for (offset, mark) in drawn.enumerated() where offset % step == 0 {
            out += "<g class=\"mark\"><title>generation \(mark.generation): \(MarkupText.escape(mark.label)) at \(MarkupText.escape(describe(mark.x)))</title>"
            out += "<line x1=\"\(px(mark.x))\" y1=\"\(format(top))\" x2=\"\(px(mark.x))\" y2=\"\(py(0))\"/>"
            out += "<text x=\"\(px(mark.x))\" y=\"\(format(top - 3))\" text-anchor=\"middle\">\(mark.generation)</text></g>\n"
        }
        if let first = samples.first {
            // Steps: a level holds until the next sample.
            var points = ["\(px(first.x)),\(py(first.bytes))"]
            for (previous, sample) in zip(samples, samples.dropFirst()) {
                points.append("\(px(sample.x)),\(py(previous.bytes))")
                points.append("\(px(sample.x)),\(py(sample.bytes))")
            }
            out += "<polyline class=\"live\" points=\"\(points.joined(separator: " "))\"/>\n"
        }
        if peak.bytes > 0 {
            let caption = "peak \(formatBytes(peak.bytes)) in \(peak.blocks) blocks at \(describe(peakX)), generation \(peak.generation)"
            out += "<g class=\"peak\"><title>\(MarkupText.escape(caption))</title>"
            out += "<circle cx=\"\(px(peakX))\" cy=\"\(py(peak.bytes))\" r=\"4\"/></g>\n"
        }
        return out + "</svg>\n"
    }

    private func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(abs(tenths % 10))"
    }
}

/// `0.012 s`, `1.25 s`, `93 s`: three significant digits at most, no Foundation.
func formatSeconds(_ seconds: Double) -> String {
    if seconds >= 100 { return "\(Int(seconds.rounded())) s" }
    let decimals = seconds >= 10 ? 1 : (seconds >= 1 ? 2 : 3)
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((seconds * Double(scale)).rounded())
    let fraction = String(scaled % scale)
    return "\(scaled / scale).\(String(repeating: "0", count: decimals - fraction.count))\(fraction) s"
}
