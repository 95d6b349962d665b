import PropertyList

/// A flame graph as inline SVG: the root along the bottom, callees stacked above their
/// callers, one `<title>` tooltip per rectangle.
enum FlameGraphSVG {
    static let width = 1160.0
    static let rowHeight = 18.0
    /// Average advance of the 12px monospace font, to cut labels that would overflow.
    static let characterWidth = 7.3

    static func render(_ graph: FlameGraph, id: String) -> String {
        let layout = FlameGraph.Layout(graph, width: width, minimumWidth: 0.3)
        let height = Double(layout.levels) * rowHeight
        var out = "<svg class=\"flame\" id=\"\(MarkupText.escape(id))\" xmlns=\"http://www.w3.org/2000/svg\" "
        out += "viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\" "
        out += "width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" role=\"img\">\n"
        for rect in layout.rects {
            let y = height - Double(rect.depth + 1) * rowHeight
            let title = "\(rect.name) — \(rect.count) block\(rect.count == 1 ? "" : "s"), \(rect.bytes) bytes (\(formatBytes(rect.bytes)))"
            out += "<g><title>\(MarkupText.escape(title))</title>"
            out += "<rect x=\"\(Self.number(rect.x))\" y=\"\(Self.number(y))\" "
            out += "width=\"\(Self.number(max(rect.width - 0.5, 0.1)))\" height=\"\(Self.number(rowHeight - 1))\" "
            out += "fill=\"\(rect.depth == 0 ? "rgb(200,200,210)" : Self.color(for: rect.name))\"/>"
            if let label = label(rect.name, fitting: rect.width) {
                out += "<text x=\"\(Self.number(rect.x + 3))\" y=\"\(Self.number(y + rowHeight - 5))\">\(MarkupText.escape(label))</text>"
            }
            out += "</g>\n"
        }
        return out + "</svg>\n"
    }

    /// `name`, or its start and an ellipsis, in `width` units; nil when not even two
    /// characters fit.
    static func label(_ name: String, fitting width: Double) -> String? {
        let fit = Int((width - 6) / characterWidth)
        guard fit >= 3 else { return nil }
        if name.count <= fit { return name }
        return String(name.prefix(fit - 1)) + "…"
    }

    /// A warm flame colour that depends only on `name` (FNV-1a), so a function keeps its
    /// colour across generations and runs.
    private static func color(for name: String) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        // flamegraph.pl's "hot" palette: red 205-254, green 0-229, blue 0-54.
        let r = 205 + Int(hash & 0xFF) * 50 / 255
        let g = Int((hash >> 8) & 0xFF) * 230 / 255
        let b = Int((hash >> 16) & 0xFF) * 55 / 255
        return "rgb(\(r),\(g),\(b))"
    }

    /// A coordinate with at most two decimals, without a trailing `.0` (smaller files, and
    /// the same text on every platform).
    private static func number(_ value: Double) -> String {
        let hundredths = Int64((value * 100).rounded())
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
