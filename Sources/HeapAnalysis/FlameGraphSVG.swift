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
        var out = "<svg class=\"flame\" id=\"\(HTMLText.escape(id))\" xmlns=\"http://www.w3.org/2000/svg\" "
        out += "viewBox=\"0 0 \(HTMLText.number(width)) \(HTMLText.number(height))\" "
        out += "width=\"\(HTMLText.number(width))\" height=\"\(HTMLText.number(height))\" role=\"img\">\n"
        for rect in layout.rects {
            let y = height - Double(rect.depth + 1) * rowHeight
            let title = "\(rect.name) — \(rect.count) block\(rect.count == 1 ? "" : "s"), \(rect.bytes) bytes (\(formatBytes(rect.bytes)))"
            out += "<g><title>\(HTMLText.escape(title))</title>"
            out += "<rect x=\"\(HTMLText.number(rect.x))\" y=\"\(HTMLText.number(y))\" "
            out += "width=\"\(HTMLText.number(max(rect.width - 0.5, 0.1)))\" height=\"\(HTMLText.number(rowHeight - 1))\" "
            out += "fill=\"\(rect.depth == 0 ? "rgb(200,200,210)" : HTMLText.color(for: rect.name))\"/>"
            if let label = label(rect.name, fitting: rect.width) {
                out += "<text x=\"\(HTMLText.number(rect.x + 3))\" y=\"\(HTMLText.number(y + rowHeight - 5))\">\(HTMLText.escape(label))</text>"
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
}
