import PropertyList

/// `devkit heapdiff --html`: one self-contained page (inline CSS and SVG, no script, nothing
/// fetched) with what the text report shows plus a flame graph of each generation's survivors.
/// Every string from the recording is escaped: the recorded program chose its labels,
/// function names and command line.
public enum HeapHTMLReport {
    /// Generations given a section (flame graph and sites) on one page: those with the most
    /// bytes, shown in generation order. The page stays a few MB however many generations a
    /// recording has (100k gave a 169 MB page, issue 15 §5); the text and JSON reports list all.
    public static let maximumDrawnGenerations = 100
    /// Rows of the generations table: the first ones, plus every drawn generation.
    public static let maximumTableRows = 1_000

    /// The indices into `report.generations` that get a section: those with survivors, at most
    /// `maximumDrawnGenerations` of them, the most surviving bytes first, in generation order.
    public static func drawnGenerations(_ report: HeapReport) -> [Int] {
        largest(report.generations.indices.filter { report.generations[$0].survivorCount > 0 }) {
            report.generations[$0].survivorBytes
        }
    }

    /// The indices into `report.generations` that get a section on the leaks page: those with
    /// blocks of any kind, at most `maximumDrawnGenerations`, the most lost bytes first (possibly
    /// lost and still reachable bytes count half).
    public static func drawnGenerations(_ report: LeakReport) -> [Int] {
        largest(report.generations.indices.filter { report.generations[$0].blockCount > 0 }) {
            let g = report.generations[$0]
            return g.leakedBytes &+ (g[.possiblyLost].bytes &+ g[.stillReachable].bytes) / 2
        }
    }

    private static func largest(_ candidates: [Int], by bytes: (Int) -> UInt64) -> [Int] {
        guard candidates.count > maximumDrawnGenerations else { return candidates }
        return candidates.sorted { (bytes($0), $1) > (bytes($1), $0) }.prefix(maximumDrawnGenerations).sorted()
    }

    /// Whether generation `index` gets a table row.
    private static func tableRows(drawn: Set<Int>) -> (Int) -> Bool {
        { index in index < maximumTableRows || drawn.contains(index) }
    }

    private static func omittedRowsNote(count: Int, drawn: Set<Int>, columns: Int) -> String {
        let listed = min(count, maximumTableRows) + drawn.filter { $0 >= maximumTableRows }.count
        guard listed < count else { return "" }
        return "<tr><td></td><td class=\"note\" colspan=\"\(columns - 1)\">… \(count - listed) more generations not listed "
            + "(at most \(maximumTableRows) rows; the text and JSON reports list every one)</td></tr>\n"
    }

    private static func omittedSectionsNote(candidates: Int, drawn: Int) -> String {
        guard candidates > drawn else { return "" }
        return "<p class=\"note\">\(candidates - drawn) more generations not drawn: a page draws the \(maximumDrawnGenerations) "
            + "with the most bytes (the text and JSON reports list every one)</p>\n"
    }

    /// The page for one recording; `flameGraphs[i]` draws the survivors of
    /// `report.generations[i]`.
    public static func render(_ report: HeapReport, flameGraphs: [FlameGraph]) -> [UInt8] {
        render(report) { $0 < flameGraphs.count ? flameGraphs[$0] : nil }
    }

    /// The page for one recording; `flameGraph(i)` draws the survivors of
    /// `report.generations[i]`, asked only for the generations drawn (`drawnGenerations`).
    public static func render(_ report: HeapReport, flameGraph: (Int) -> FlameGraph?) -> [UInt8] {
        let drawnList = drawnGenerations(report), drawn = Set(drawnList)
        let listed = tableRows(drawn: drawn)
        let aliveTitle = HeapReport.aliveTitle(report.horizon)
        var body = "<h1>Heap generations</h1>\n<p class=\"meta\">\(MarkupText.escape(headline(report)))</p>\n"
        body += "<table class=\"generations\">\n<thead><tr><th>gen</th><th>label</th><th>allocated</th><th>bytes</th>"
        body += "<th>\(aliveTitle)</th><th>bytes</th><th>heap growth</th><th>peak</th></tr></thead>\n<tbody>\n"
        for (index, summary) in report.generations.enumerated() where listed(index) {
            let g = summary.generation
            let label = MarkupText.escape(displayLabel(g))
            body += "<tr><td class=\"n\">\(g.index)</td>"
            body += drawn.contains(index) ? "<td><a href=\"#gen-\(g.index)\">\(label)</a></td>" : "<td>\(label)</td>"
            body += "<td class=\"n\">\(g.allocatedCount)</td><td class=\"n\">\(formatBytes(g.allocatedBytes))</td>"
            body += "<td class=\"n\">\(summary.survivorCount)</td><td class=\"n\">\(formatBytes(summary.survivorBytes))</td>"
            body += "<td class=\"n\(g.growth > 0 ? " grew" : "")\">\(formatSignedBytes(g.growth))</td>"
            body += "<td class=\"n\">\(formatBytes(g.peak.bytes))</td></tr>\n"
        }
        body += omittedRowsNote(count: report.generations.count, drawn: drawn, columns: 8)
        body += "</tbody>\n</table>\n"
        body += omittedSectionsNote(candidates: report.generations.lazy.filter { $0.survivorCount > 0 }.count, drawn: drawnList.count)
        body += peakSection(report)
        for index in drawnList {
            let summary = report.generations[index]
            let g = summary.generation
            body += "<section id=\"gen-\(g.index)\">\n<h2>Generation \(g.index): \(MarkupText.escape(displayLabel(g)))</h2>\n"
            body += "<p>\(summary.survivorCount) block\(summary.survivorCount == 1 ? "" : "s"), \(formatBytes(summary.survivorBytes)) \(aliveTitle)</p>\n"
            if let graph = flameGraph(index) { body += flame(graph, id: "flame-\(g.index)") }
            body += groupsTable(summary.groups, key: report.groupKey, omitted: summary.omittedGroups)
            body += "</section>\n"
        }
        if report.unmatchedFrees > 0 {
            body += "<p class=\"note\">note: \(report.unmatchedFrees) frees of blocks allocated before recording started</p>\n"
        }
        if report.preAttachFrees > 0 {
            body += "<p class=\"note\">note: \(report.preAttachFrees) frees of blocks allocated before the attach (not in the counts above)</p>\n"
        }
        body += warnings(report.warnings.map(\.description))
        return page(title: "heapdiff \(report.path)", body: body)
    }

    /// The page for two recordings: the groups that changed, and what each left alive.
    public static func render(_ diff: HeapDiff, before: (path: String, graph: FlameGraph),
                              after: (path: String, graph: FlameGraph)) -> [UInt8] {
        var body = "<h1>Heap comparison</h1>\n"
        body += "<p class=\"meta\">\(MarkupText.escape(before.path)) → \(MarkupText.escape(after.path))</p>\n"
        body += "<p>alive at end: \(diff.before.count) blocks, \(formatBytes(diff.before.bytes)) → "
        body += "\(diff.after.count) blocks, \(formatBytes(diff.after.bytes)) "
        body += "(\(formatSignedBytes(Int64(bitPattern: diff.after.bytes &- diff.before.bytes))))</p>\n"
        if diff.rows.isEmpty {
            body += "<p>no differences by \(diff.groupKey.rawValue)</p>\n"
        } else {
            body += "<table class=\"sites\">\n<thead><tr><th>bytes</th><th>blocks</th><th>before</th><th>after</th>"
            body += "<th>\(diff.groupKey.rawValue)</th></tr></thead>\n<tbody>\n"
            for row in diff.rows {
                body += "<tr><td class=\"n\(row.bytesDelta > 0 ? " grew" : "")\">\(formatSignedBytes(row.bytesDelta))</td>"
                body += "<td class=\"n\">\(row.countDelta >= 0 ? "+" : "")\(row.countDelta)</td>"
                body += "<td class=\"n\">\(formatBytes(row.before.bytes))</td><td class=\"n\">\(formatBytes(row.after.bytes))</td>"
                body += "<td class=\"key\">\(MarkupText.escape(row.key))</td></tr>\n"
            }
            body += "</tbody>\n</table>\n"
        }
        for (name, side) in [("after", after), ("before", before)] {
            body += "<section id=\"\(name)\">\n<h2>Alive at the end of \(MarkupText.escape(side.path))</h2>\n"
            body += flame(side.graph, id: "flame-\(name)") + "</section>\n"
        }
        return page(title: "heapdiff \(before.path) \(after.path)", body: body)
    }

    /// The page for `heapdiff --leaks`: the exit scan's summary, the table of memcheck's four
    /// kinds per generation, then per generation with blocks alive a flame graph of the leaked
    /// bytes (definitely and indirectly lost; `leakedGraphs[i]` draws those of
    /// `report.generations[i]`) and its groups of each kind: what is worth fixing first, still
    /// reachable blocks as context.
    public static func render(_ report: LeakReport, leakedGraphs: [FlameGraph]) -> [UInt8] {
        render(report) { $0 < leakedGraphs.count ? leakedGraphs[$0] : nil }
    }

    /// The leaks page; `leakedGraph(i)` draws the leaked blocks of `report.generations[i]`,
    /// asked only for the generations drawn (`drawnGenerations`).
    public static func render(_ report: LeakReport, leakedGraph: (Int) -> FlameGraph?) -> [UInt8] {
        let drawnList = drawnGenerations(report), drawn = Set(drawnList)
        let listed = tableRows(drawn: drawn)
        var headline = "\(report.path): pid \(report.pid)"
        if !report.command.isEmpty { headline += ", \(report.command.joined(separator: " "))" }
        headline += ", \(report.end.map(HeapReport.describe) ?? HeapReport.noEndRecord)"
        var body = "<h1>Heap leaks</h1>\n<p class=\"meta\">\(MarkupText.escape(headline))</p>\n"
        body += "<p class=\"scan\">\(MarkupText.escape(report.scanSummary))</p>\n"
        body += warnings(report.scanCaveats)
        body += "<table class=\"generations\">\n<thead><tr><th>gen</th><th>label</th>"
        body += LeakKind.allCases.map { "<th>\($0.title)</th><th>bytes</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        func cells(_ count: Int, _ bytes: UInt64, _ kind: LeakKind) -> String {
            "<td class=\"n\(count > 0 && kind.isUnreachable ? " grew" : "")\">\(count)</td><td class=\"n\">\(formatBytes(bytes))</td>"
        }
        for (index, g) in report.generations.enumerated() where listed(index) {
            let label = MarkupText.escape(displayLabel(g.generation))
            body += "<tr><td class=\"n\">\(g.generation.index)</td>"
            body += drawn.contains(index) ? "<td><a href=\"#gen-\(g.generation.index)\">\(label)</a></td>" : "<td>\(label)</td>"
            body += LeakKind.allCases.map { cells(g[$0].count, g[$0].bytes, $0) }.joined() + "</tr>\n"
        }
        body += "<tr><td></td><td>total</td>"
        body += LeakKind.allCases.map { "<td class=\"n\">\(report.count($0))</td><td class=\"n\">\(formatBytes(report.bytes($0)))</td>" }.joined()
        body += "</tr>\n"
        body += omittedRowsNote(count: report.generations.count, drawn: drawn, columns: 2 + 2 * LeakKind.allCases.count)
        body += "</tbody>\n</table>\n"
        body += omittedSectionsNote(candidates: report.generations.lazy.filter { $0.blockCount > 0 }.count,
                                    drawn: drawnList.count)
        for index in drawnList {
            let g = report.generations[index]
            let gen = g.generation.index
            body += "<section id=\"gen-\(gen)\">\n<h2>Generation \(gen): \(MarkupText.escape(displayLabel(g.generation)))</h2>\n"
            if g.leakedCount > 0, let graph = leakedGraph(index) {
                body += "<h3>\(g.leakedCount) leaked block\(g.leakedCount == 1 ? "" : "s") (definitely and indirectly lost), \(formatBytes(g.leakedBytes))</h3>\n"
                body += flame(graph, id: "flame-leaked-\(gen)")
            }
            for kind in LeakKind.allCases where g[kind].count > 0 {
                let part = g[kind]
                body += "<h3>\(part.count) block\(part.count == 1 ? "" : "s") \(kind.title), \(formatBytes(part.bytes))</h3>\n"
                body += groupsTable(part.groups, key: report.groupKey, omitted: part.omittedGroups)
            }
            body += "</section>\n"
        }
        return page(title: "heapdiff --leaks \(report.path)", body: body)
    }

    /// Live bytes over time (above the flame graphs) and the peak with what was alive then.
    static func peakSection(_ report: HeapReport) -> String {
        var out = "<section id=\"timeline\">\n<h2>Live bytes over time</h2>\n"
        out += "<div class=\"timeline\">\n" + report.chart.svg(id: "timeline-chart") + "</div>\n"
        out += "<p>peak: \(MarkupText.escape(report.describe(report.peak)))</p>\n"
        if let note = report.shortLivedNote { out += "<p class=\"note\">note: \(MarkupText.escape(note))</p>\n" }
        if report.peak.peak.bytes > 0 {
            out += groupsTable(report.peak.groups, key: report.groupKey, omitted: report.peak.omittedGroups)
        }
        return out + "</section>\n"
    }

    static func headline(_ report: HeapReport) -> String {
        var out = "\(report.path): pid \(report.pid)"
        if !report.command.isEmpty { out += ", \(report.command.joined(separator: " "))" }
        return out + ", \(report.end.map(HeapReport.describe) ?? HeapReport.noEndRecord)"
    }

    static func displayLabel(_ g: HeapTimeline.Generation) -> String {
        g.mark.label.isEmpty ? "(\(HeapReport.describe(g.mark.kind)))" : g.mark.label
    }

    static func flame(_ graph: FlameGraph, id: String) -> String {
        guard graph.root.bytes > 0 else { return "<p class=\"note\">nothing alive</p>\n" }
        return "<div class=\"flame\">\n" + FlameGraphSVG.render(graph, id: id) + "</div>\n"
    }

    static func groupsTable(_ groups: [HeapGroup], key: HeapGroupKey, omitted: Int) -> String {
        var out = "<table class=\"sites\">\n<thead><tr><th>bytes</th><th>blocks</th><th>\(key.rawValue)</th></tr></thead>\n<tbody>\n"
        for group in groups {
            out += "<tr><td class=\"n\">\(formatBytes(group.bytes))</td><td class=\"n\">\(group.count)</td>"
            out += "<td class=\"key\">\(MarkupText.escape(group.key))</td></tr>\n"
        }
        if omitted > 0 { out += "<tr><td></td><td></td><td class=\"note\">… \(omitted) more</td></tr>\n" }
        return out + "</tbody>\n</table>\n"
    }

    static func warnings(_ messages: [String]) -> String {
        guard !messages.isEmpty else { return "" }
        return "<ul class=\"warnings\">\n" + messages.map { "<li>warning: \(MarkupText.escape($0))</li>\n" }.joined() + "</ul>\n"
    }

    static func page(title: String, body: String) -> [UInt8] {
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(MarkupText.escape(title))</title>
            <style>\(style)</style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
        return Array(html.utf8)
    }

    /// System fonts only: the page must render offline, exactly as written. Flame graphs shrink
    /// a little with the window, then scroll (below 800px labels would be unreadable).
    static let style = """

        body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #1d1d1f; background: #fff; }
        h1 { font-size: 20px; margin: 0 0 4px; }
        h2 { font-size: 16px; margin: 28px 0 4px; }
        h3 { font-size: 14px; margin: 16px 0 4px; }
        .meta { color: #555; font-family: ui-monospace, Menlo, monospace; font-size: 12px; overflow-wrap: anywhere; }
        table { border-collapse: collapse; margin: 8px 0; font-family: ui-monospace, Menlo, monospace; font-size: 12px; }
        th, td { padding: 3px 10px; border-bottom: 1px solid #e3e3e8; text-align: left; vertical-align: top; }
        th { background: #f4f4f7; font-weight: 600; white-space: nowrap; }
        td.n { text-align: right; white-space: nowrap; }
        td.key { overflow-wrap: anywhere; }
        td.grew { color: #b3261e; }
        .note { color: #666; }
        .warnings { color: #8a5300; }
        div.flame { overflow-x: auto; border: 1px solid #e3e3e8; padding: 4px; max-width: 1170px; }
        svg.flame { display: block; width: 100%; min-width: 800px; height: auto; font: 12px ui-monospace, Menlo, monospace; }
        svg.flame text { fill: #000; pointer-events: none; }
        svg.flame g:hover rect { stroke: #000; stroke-width: 1; }
        div.timeline { border: 1px solid #e3e3e8; padding: 4px; max-width: 1170px; }
        svg.timeline { display: block; width: 100%; height: auto; font: 11px ui-monospace, Menlo, monospace; }
        svg.timeline .axis { stroke: #888; stroke-width: 1; }
        svg.timeline .mark line { stroke: #999; stroke-dasharray: 3 3; }
        svg.timeline polyline.live { fill: none; stroke: #c0392b; stroke-width: 1.5; }
        svg.timeline .peak circle { fill: #c0392b; }

        """
}
