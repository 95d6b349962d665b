import Diagnostics
import LintKit
import PropertyList

/// A bundle's `_CodeSignature/CodeResources` (an XML plist codesign writes): the files it
/// seals (`files2`, or `files` when a signature predates it) and the rules deciding which
/// files had to be sealed (`rules2`, or `rules`).
struct ResourceSeal {
    /// What one sealed path must be.
    enum Entry: Equatable {
        /// A file with its SHA-1 (`hash`) and/or SHA-256 (`hash2`); `optional` ones may be absent.
        case file(sha1: [UInt8]?, sha256: [UInt8]?, optional: Bool)
        /// A symbolic link and where it points.
        case symlink(String)
        /// Nested code (a framework, an extension, a dylib) sealed by its cdhash.
        case nested(cdhash: [UInt8])
    }

    /// One rule: a regular expression on the path relative to the bundle, and what a match means.
    struct Rule {
        var pattern: String
        var omit: Bool
        var optional: Bool
        var nested: Bool
        var weight: Double
    }

    var entries: [(path: String, entry: Entry)]
    var rules: [Rule]

    /// Reads the plist; an unreadable one or one without `files`/`files2` is a diagnostic
    /// naming `path`.
    static func read(_ bytes: [UInt8], path: String) throws(Diagnostic) -> ResourceSeal {
        let value: PlistValue
        do { value = try PropertyListCoding.read(bytes).value } catch {
            throw error.diagnostic.inFile(path)
        }
        let files2 = value[key: "files2"]?.dictionaryEntries
        guard let files = files2 ?? value[key: "files"]?.dictionaryEntries else {
            throw Diagnostic(file: path, message: "CodeResources has neither files2 nor files", kind: .malformed)
        }
        var entries: [(String, Entry)] = []
        entries.reserveCapacity(files.count)
        for (name, item) in files {
            switch item {
            case .data(let sha1):
                entries.append((name, .file(sha1: sha1, sha256: nil, optional: false)))
            case .dictionary:
                if case .data(let cdhash)? = item[key: "cdhash"] {
                    entries.append((name, .nested(cdhash: cdhash)))
                } else if let target = item[key: "symlink"]?.stringValue {
                    entries.append((name, .symlink(target)))
                } else {
                    var sha1: [UInt8]?, sha256: [UInt8]?
                    if case .data(let d)? = item[key: "hash"] { sha1 = d }
                    if case .data(let d)? = item[key: "hash2"] { sha256 = d }
                    // A seal entry without any hash seals nothing: the file reads as modified.
                    entries.append((name, .file(sha1: sha1 ?? [], sha256: sha256, optional: item[key: "optional"] == .bool(true))))
                }
            default:
                throw Diagnostic(file: path, message: "CodeResources entry \(name) is a \(item.typeName), not data or a dictionary", kind: .malformed)
            }
        }
        let ruleEntries = (files2 != nil ? value[key: "rules2"] : value[key: "rules"])?.dictionaryEntries ?? []
        let rules = ruleEntries.map { pattern, item in
            Rule(pattern: pattern, omit: item[key: "omit"] == .bool(true), optional: item[key: "optional"] == .bool(true),
                 nested: item[key: "nested"] == .bool(true), weight: Self.number(item[key: "weight"]) ?? 1)
        }
        return ResourceSeal(entries: entries, rules: rules)
    }

    /// The rule that decides `path`: the heaviest whose pattern matches (codesign's order);
    /// nil when none does. Patterns are compiled here, not at read: only files missing from
    /// the seal are looked up, and a sealed bundle has none. A pattern that is not a valid
    /// regular expression matches nothing.
    func rule(for path: String) -> Rule? {
        var best: Rule?
        for rule in rules where rule.weight > (best?.weight ?? -.infinity) {
            guard let regex = try? Regex(rule.pattern), (try? regex.firstMatch(in: path)) != nil else { continue }
            best = rule
        }
        return best
    }

    private static func number(_ value: PlistValue?) -> Double? {
        switch value {
        case .real(let r)?: r.value
        case .integer(let i)?: Double(i.magnitude) * (i.isNegative ? -1 : 1)
        default: nil
        }
    }
}
