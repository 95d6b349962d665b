import Diagnostics
import JSONWriter
import PlistTools
import PropertyList
import System

/// Findings a project has accepted for now (`devkit lint --baseline FILE`): a run reports only
/// the findings the baseline does not hold, so a team can adopt a rule without fixing every
/// old finding first, and new ones still fail.
///
/// An entry is keyed by rule id, file path (as printed, so relative to where devkit runs) and
/// key path — not the line, so lines added or removed elsewhere in the file do not bring a
/// finding back. Each entry stands for one finding: two identical findings and one entry leave
/// one reported. The entry's message is kept too; when several entries share a key, findings
/// with the same message take theirs first, so a new finding under a key that already has
/// entries is the one reported. A finding whose message changed but whose rule, file and key
/// path did not (a value edited) still matches.
///
/// The file is JSON, written with `JSONWriter` so it diffs well:
/// `{"version": 1, "findings": [{"rule", "file", "keyPath" (absent for findings about a whole
/// file), "message"}]}`, read back through the property-list JSON reader, whose errors carry
/// line and column; errors in a well-formed file of the wrong shape name theirs too
/// (`PlistSourceMap(json:)`, the reader recording where each value is).
public struct LintBaseline: Hashable, Sendable {
    /// One accepted finding.
    public struct Entry: Hashable, Sendable {
        public var ruleID: String
        public var file: String
        /// The rule's key path as components (nil for a finding without one, such as a syntax error).
        public var keyPath: [String]?
        /// The finding's message; nil matches any message.
        public var message: String?

        public init(ruleID: String, file: String, keyPath: [String]?, message: String?) {
            self.ruleID = ruleID
            self.file = file
            self.keyPath = keyPath
            self.message = message
        }

        public init(_ finding: Finding) {
            self.init(ruleID: finding.ruleID, file: finding.file, keyPath: finding.keyPath?.components, message: finding.message)
        }

        /// What matching compares: rule, file (without leading `./`) and key path.
        var key: Key { Key(ruleID: ruleID, file: LintBaseline.comparablePath(file), keyPath: keyPath) }
    }

    struct Key: Hashable {
        var ruleID: String
        var file: String
        var keyPath: [String]?
    }

    public static let formatVersion = 1

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// A baseline accepting every one of `findings`.
    public init(findings: [Finding]) {
        self.init(entries: findings.map(Entry.init))
    }

    // MARK: Matching

    /// The findings the baseline does not account for, in their order, and how many it did.
    public func filter(_ findings: [Finding]) -> (reported: [Finding], suppressed: Int) {
        var unused: [Key: [Int]] = [:]  // entry indices not yet matched, by key, in file order
        for (index, entry) in entries.enumerated() { unused[entry.key, default: []].append(index) }
        var matched = [Bool](repeating: false, count: findings.count)
        let keys = findings.map { Entry($0).key }
        // First the entries whose message is the finding's, then any left under the same key.
        for exactMessage in [true, false] {
            for (index, finding) in findings.enumerated() where !matched[index] {
                guard var candidates = unused[keys[index]], !candidates.isEmpty else { continue }
                let pick = exactMessage ? candidates.firstIndex { entries[$0].message == finding.message || entries[$0].message == nil }
                                        : candidates.indices.first
                guard let pick else { continue }
                candidates.remove(at: pick)
                unused[keys[index]] = candidates
                matched[index] = true
            }
        }
        let reported = findings.indices.filter { !matched[$0] }.map { findings[$0] }
        return (reported, findings.count - reported.count)
    }

    /// `result` with only the findings the baseline does not account for (so its exit status
    /// follows them).
    public func apply(to result: LintResult) -> LintResult {
        var filtered = result
        filtered.findings = filter(result.findings).reported
        return filtered
    }

    /// `./App/Info.plist` and `App/Info.plist` are the same file as printed by two runs.
    static func comparablePath(_ path: String) -> String {
        var p = Substring(path)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        return String(p)
    }

    // MARK: File

    /// The baseline as JSON text (entries in the order given).
    public var json: String {
        let rows: [JSONValue] = entries.map { entry in
            var row = [JSONMember("rule", .string(entry.ruleID)), JSONMember("file", .string(entry.file))]
            if let keyPath = entry.keyPath { row.append(JSONMember("keyPath", .array(keyPath.map(JSONValue.string)))) }
            if let message = entry.message { row.append(JSONMember("message", .string(message))) }
            return .object(row)
        }
        return JSONWriter.text(["version": .number(Self.formatVersion), "findings": .array(rows)])
    }

    /// Writes the baseline to `path` atomically (a temporary file renamed over it), so a run
    /// that fails midway leaves the old baseline whole.
    public func write(to path: String) throws(LintBaselineError) {
        do {
            try FileIO.writeAtomically(Array(json.utf8), to: path)
        } catch {
            throw LintBaselineError(file: path, message: error.reason, kind: error.diagnostic.kind)
        }
    }

    /// Reads the baseline at `path`.
    public static func read(_ path: String) throws(LintBaselineError) -> LintBaseline {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, kind: .propertyList)
        } catch {
            throw LintBaselineError(file: path, message: error.reason, kind: error.diagnostic.kind)
        }
        return try parse(bytes, file: path)
    }

    /// Parses baseline JSON; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(LintBaselineError) -> LintBaseline {
        let value: PlistValue
        do {
            value = try PropertyListCoding.read(bytes, format: .json).value
        } catch {
            throw LintBaselineError(file: file, position: error.position, message: "not a baseline: " + error.message)
        }
        // The value model has no positions: only when there is an error, the text is read again
        // recording where each value is, to name the value at fault (or the object that lacks it).
        func fail(_ message: String, at path: [String] = []) -> LintBaselineError {
            LintBaselineError(file: file, position: (try? PlistSourceMap(json: bytes, focus: [path]))?.position(of: path), message: "not a baseline: " + message)
        }
        guard let top = value.dictionaryEntries else { throw fail("the top level must be an object") }
        for (key, _) in top where key != "version" && key != "findings" { throw fail("unknown key \"\(key)\"", at: [key]) }
        guard case .integer(let version)? = value[key: "version"], version.description == String(formatVersion) else {
            throw fail("\"version\" must be \(formatVersion)", at: ["version"])
        }
        guard let rows = value[key: "findings"]?.arrayValue else { throw fail("\"findings\" must be an array", at: ["findings"]) }
        var entries: [Entry] = []
        entries.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            let at = "findings.\(index)"
            let entry = ["findings", String(index)]
            guard let fields = row.dictionaryEntries else { throw fail("\(at) must be an object", at: entry) }
            for (key, _) in fields where !["rule", "file", "keyPath", "message"].contains(key) {
                throw fail("\(at) has an unknown key \"\(key)\"", at: entry + [key])
            }
            guard let rule = row[key: "rule"]?.stringValue else { throw fail("\(at).rule must be a string", at: entry + ["rule"]) }
            guard let path = row[key: "file"]?.stringValue else { throw fail("\(at).file must be a string", at: entry + ["file"]) }
            var keyPath: [String]?
            if let components = row[key: "keyPath"] {
                guard let strings = components.arrayValue?.compactMap(\.stringValue),
                      strings.count == components.arrayValue?.count else {
                    throw fail("\(at).keyPath must be an array of strings", at: entry + ["keyPath"])
                }
                keyPath = strings
            }
            var message: String?
            if let text = row[key: "message"] {
                guard let string = text.stringValue else { throw fail("\(at).message must be a string", at: entry + ["message"]) }
                message = string
            }
            entries.append(Entry(ruleID: rule, file: path, keyPath: keyPath, message: message))
        }
        return LintBaseline(entries: entries)
    }
}
