import Foundation

/// An HTML page read back with Python's html.parser: whether its tags balance, and the text
/// of its tables and flame-graph tooltips (entities decoded, as a browser shows them).
public struct HTMLStructure: Decodable {
    /// Mismatched or unclosed tags; empty for a well-formed page.
    public var errors: [String]
    public var scriptElements: Int
    /// Rows of each table, keyed by the id of the section holding it (`top` outside sections).
    public var tables: [String: [[String]]]
    /// `<title>` texts of each SVG, keyed by its id.
    public var tooltips: [String: [String]]
    public var pageTitle: String

    /// Nil when there is no python3 (the test says so and checks the rest).
    public static func parse(_ html: String) throws -> HTMLStructure? {
        let directory = try HeapFixture.temporaryDirectory()
        let page = directory.appendingPathComponent("page.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let result = try HeapFixture.run("/usr/bin/env", ["python3", "-c", script, page.path])
        guard result.status == 0 else {
            if result.stderr.contains("No such file") { return nil }
            throw HeapFixture.FixtureError(message: "python3 failed: \(result.stderr)")
        }
        return try JSONDecoder().decode(HTMLStructure.self, from: Data(result.stdout.utf8))
    }

    static let script = #"""
import json, sys
from html.parser import HTMLParser

VOID = {"meta", "link", "br", "hr", "img", "input", "col", "area", "base", "wbr", "source"}

class Check(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.scripts = [], [], 0
        self.tables, self.tooltips, self.section, self.svg = {}, {}, "top", None
        self.row, self.cell, self.text, self.page_title = None, None, None, ""
    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script": self.scripts += 1
        if tag == "section": self.section = attrs.get("id", "?")
        if tag == "svg": self.svg = attrs.get("id", "?"); self.tooltips.setdefault(self.svg, [])
        if tag == "tr": self.row = []
        if tag in ("td", "th"): self.cell = ""
        if tag == "title": self.text = ""
        if tag not in VOID: self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        pass
    def handle_endtag(self, tag):
        if tag in VOID: return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes %s" % (tag, self.stack[-1] if self.stack else "nothing"))
            return
        self.stack.pop()
        if tag in ("td", "th") and self.row is not None: self.row.append(self.cell.strip()); self.cell = None
        if tag == "tr": self.tables.setdefault(self.section, []).append(self.row); self.row = None
        if tag == "title":
            if self.svg: self.tooltips[self.svg].append(self.text)
            else: self.page_title = self.text
            self.text = None
        if tag == "svg": self.svg = None
        if tag == "section": self.section = "top"
    def handle_data(self, data):
        if self.cell is not None: self.cell += data
        if self.text is not None: self.text += data

check = Check()
check.feed(open(sys.argv[1], encoding="utf-8").read())
check.close()
errors = check.errors + ["<%s> never closed" % t for t in check.stack]
print(json.dumps({"errors": errors, "scriptElements": check.scripts, "tables": check.tables,
                  "tooltips": check.tooltips, "pageTitle": check.page_title}))
"""#
}
