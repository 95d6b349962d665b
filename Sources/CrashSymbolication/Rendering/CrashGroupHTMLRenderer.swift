import PropertyList

/// `symbolicate --group --format html`: one self-contained page (no scripts, no outside
/// files) with a table of the groups and, below it, each group's example stack. Every text
/// that came from a log (exception, function names, paths, versions) is escaped
/// (`MarkupText.escape`): logs are input from devices and may hold markup.
public struct CrashGroupHTMLRenderer: Sendable {
    public init() {}

    public func render(_ report: CrashGroupReport) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>Crash groups</title>
            <style>
            body { font: 14px/1.4 -apple-system, system-ui, sans-serif; margin: 2em; color: #222; }
            table { border-collapse: collapse; width: 100%; }
            th, td { border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
            th { background: #f4f4f4; }
            td.count { text-align: right; }
            code, pre { font: 12px/1.4 ui-monospace, Menlo, monospace; }
            pre { background: #f8f8f8; padding: 8px; overflow-x: auto; }
            .raw { color: #888; }
            </style>
            </head>
            <body>
            <h1>Crash groups</h1>

            """
        html += "<p>\(e(CrashGroupTextRenderer.headline(report)))</p>\n"
        html += "<table>\n<thead><tr><th>#</th><th>crashes</th><th>exception</th><th>where</th><th>first</th><th>last</th>"
        html += "<th>app versions</th><th>OS versions</th></tr></thead>\n<tbody>\n"
        for (number, group) in report.groups.enumerated() {
            html += "<tr><td><a href=\"#group-\(number + 1)\">\(number + 1)</a></td><td class=\"count\">\(group.count)</td>"
            html += "<td>\(e(group.signature.exception))</td>"
            html += "<td>" + group.signature.frames.map { "<code>\(e($0.description))</code>" }.joined(separator: "<br>") + "</td>"
            html += "<td>\(e(group.first?.iso8601 ?? ""))</td><td>\(e(group.last?.iso8601 ?? ""))</td>"
            html += "<td>\(list(group.appVersions))</td><td>\(list(group.osVersions))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        for (number, group) in report.groups.enumerated() {
            html += "<div class=\"group\" id=\"group-\(number + 1)\">\n"
            html += "<h2>#\(number + 1): \(e(group.signature.exception)), \(group.count) crash\(group.count == 1 ? "" : "es")</h2>\n"
            if let when = CrashGroupTextRenderer.dates(group) { html += "<p>\(e(when))</p>\n" }
            html += "<p>formats: \(e(CrashGroupTextRenderer.counts(group.formats)))</p>\n"
            html += "<p>example: <code>\(e(group.example))</code></p>\n<pre>"
            for frame in group.exampleFrames {
                let address = frame.address.map { FrameText.paddedHex($0) } ?? "?"
                var text = frame.function + (frame.offset.map { " + \($0)" } ?? "")
                if let location = frame.location { text += " (\(location))" }
                if frame.inlined { text += " [inlined]" }
                let line = "\(String(frame.index).padding(3)) \(frame.image.padding(24)) \(address) \(text)"
                html += frame.symbolicated ? e(line) + "\n" : "<span class=\"raw\">\(e(line))</span>\n"
            }
            html += "</pre>\n</div>\n"
        }
        if !report.unreadable.isEmpty {
            html += "<h2>Unreadable logs</h2>\n<ul>\n"
            for log in report.unreadable {
                html += "<li><code>\(e(log.file))\(log.line.map { ":\($0)" } ?? "")</code>: \(e(log.message))</li>\n"
            }
            html += "</ul>\n"
        }
        html += "</body>\n</html>\n"
        return html
    }

    private func e(_ text: String) -> String { MarkupText.escape(text) }

    private func list(_ counts: [String: Int]) -> String {
        CrashGroup.sorted(counts).map { "\(e($0.name)) ×\($0.count)" }.joined(separator: "<br>")
    }
}
