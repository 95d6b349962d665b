import PropertyList

/// A `suppress:` entry of `.devkit.yml`: rules silenced in the files a glob matches, in the
/// whole file or, with a key path (`"Localizable.xcstrings#strings.Done"`), in that entry and
/// everything inside it. The way to silence findings in JSON files, which cannot hold
/// comments; it works for every format. The `file#location` spelling follows Spectral's
/// `overrides` (`openapi.json#/paths`); the rule lists follow Ruff's `per-file-ignores`.
public struct PathSuppression: Sendable, Hashable {
    /// Files it applies to, relative to the config file's directory.
    public var glob: Glob
    /// The entry silenced, with everything inside it; nil: the whole file.
    public var keyPath: [String]?
    /// Rule ids silenced; empty: every rule.
    public var ruleIDs: Set<String>
    /// The config file's line, for messages.
    public var line: Int?

    public init(glob: Glob, keyPath: [String]? = nil, ruleIDs: Set<String>, line: Int? = nil) {
        self.glob = glob
        self.keyPath = keyPath
        self.ruleIDs = ruleIDs
        self.line = line
    }

    /// From a `suppress:` key: a glob, then optionally `#` and a dotted key path (the first
    /// `#` splits them; an empty key path is the whole file).
    public init(pattern: String, ruleIDs: Set<String>, line: Int? = nil) {
        if let hash = pattern.firstIndex(of: "#") {
            let path = String(pattern[pattern.index(after: hash)...])
            self.init(glob: Glob(String(pattern[..<hash])), keyPath: path.isEmpty ? nil : KeyPath.parse(path).components,
                      ruleIDs: ruleIDs, line: line)
        } else {
            self.init(glob: Glob(pattern), ruleIDs: ruleIDs, line: line)
        }
    }

    /// Whether it silences a finding of `ruleID` about `path` (nil: no key path, such as a
    /// syntax error, which only a whole-file entry silences) in a file whose config-relative
    /// path matched `glob`.
    public func silences(ruleID: String, path: [String]?) -> Bool {
        guard ruleIDs.isEmpty || ruleIDs.contains(ruleID) else { return false }
        guard let keyPath else { return true }
        return path.map { $0.starts(with: keyPath) } ?? false
    }
}
