import Diagnostics
import System
import LintKit

/// `.devkit.yml`: the lint settings of a project, found upward from the current directory.
///
/// ```yaml
/// lint:
///   disabled_rules: [infoplist.deprecated-key]
///   enabled_rules: [plist.non-canonical-format]     # rules that are off by default
///   severity: {infoplist.arbitrary-loads: error}    # error | warning | info
///   include: ["App/**"]                             # directory walks lint only these
///   exclude: ["Pods", "**/Generated/*.plist"]
///   kinds: {"Config/*.xcent.plist": entitlements}   # info-plist | entitlements | ota-manifest | privacy-manifest | plist | strings | string-catalog
///   rules: {plist.large-data: {max_bytes: 4096}}
///   suppress:                                       # JSON files cannot hold comments
///     "Resources/*.xcstrings": [xcstrings.stale]    # whole files
///     "Config/Flags.json#Experiments": []           # that entry and inside it; [] every rule
/// ```
///
/// Globs are relative to the file's directory. Unknown keys, kinds and severities are errors
/// naming the line, so a typo does not silently leave a rule on.
///
/// Parsed with libyaml (`YAMLDocument`); a syntax error names its line and column.
public enum LintConfigFile {
    public static let fileName = ".devkit.yml"

    /// The nearest `.devkit.yml` in `directory` (absolute) or above it.
    public static func find(from directory: String) -> String? {
        var dir = Path.normalize(directory)
        while true {
            let candidate = dir == "/" ? "/" + fileName : dir + "/" + fileName
            if DirectoryWalk.type(of: candidate) == .file { return candidate }
            if dir == "/" { return nil }
            dir = Path.normalize(dir + "/..")
        }
    }

    /// Reads and parses the file at `path` (absolute).
    public static func load(_ path: String) throws(LintConfigurationError) -> LintConfiguration {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, kind: .configuration) } catch { throw LintConfigurationError(source: path, message: error.reason) }
        let directory = path.split(separator: "/").dropLast().joined(separator: "/")
        return try parse(bytes, source: path, baseDirectory: "/" + directory)
    }

    /// Parses the text of a config file; `baseDirectory` (absolute) anchors its globs.
    public static func parse(_ text: String, source: String, baseDirectory: String) throws(LintConfigurationError) -> LintConfiguration {
        try parse(Array(text.utf8), source: source, baseDirectory: baseDirectory)
    }

    /// Parses a config file's bytes (UTF-8); `baseDirectory` (absolute) anchors its globs.
    public static func parse(_ text: [UInt8], source: String, baseDirectory: String) throws(LintConfigurationError) -> LintConfiguration {
        var configuration = LintConfiguration()
        configuration.source = source
        configuration.baseDirectory = Path.normalize(baseDirectory)
        let document: YAMLDocument
        do { document = try YAMLDocument(parsing: text) } catch {
            throw LintConfigurationError(source: source, line: error.line, column: error.column, message: "not valid YAML: \(error.message)")
        }
        // An empty document (no content, or only `---`) configures nothing.
        guard let root = document.root, !document.isEmptyScalar(root) else { return configuration }
        let reader = Reader(source: source, document: document)
        let top = try reader.mapping(root, "the file")
        for (key, value) in top {
            // Other subcommands' sections (provision, …) are theirs to read.
            guard try reader.string(key, "a key") == "lint" else { continue }
            for (setting, node) in try reader.mapping(value, "lint") {
                let name = try reader.string(setting, "a setting name")
                switch name {
                case "disabled_rules": configuration.disabledRules = Set(try reader.strings(node, name))
                case "enabled_rules": configuration.enabledRules = Set(try reader.strings(node, name))
                case "only_rules": configuration.onlyRules = Set(try reader.strings(node, name))
                case "include": configuration.include = try reader.strings(node, name).map(Glob.init)
                case "exclude": configuration.exclude = try reader.strings(node, name).map(Glob.init)
                case "severity":
                    for (rule, level) in try reader.mapping(node, name) {
                        let text = try reader.string(level, "a severity")
                        guard let severity = Severity(name: text) else {
                            throw reader.error(level, "unknown severity \"\(text)\" (error, warning or info)")
                        }
                        configuration.severities[try reader.string(rule, "a rule id")] = severity
                    }
                case "kinds":
                    for (pattern, kindNode) in try reader.mapping(node, name) {
                        let text = try reader.string(kindNode, "a file kind")
                        // The rule pack's registry checks the kind (it knows which it has).
                        configuration.kinds.append(.init(glob: Glob(try reader.string(pattern, "a glob")), kind: FileKind(rawValue: text),
                                                         line: document[kindNode].line))
                    }
                case "rules":
                    for (rule, options) in try reader.mapping(node, name) {
                        var values: [String: RuleOptionValue] = [:]
                        for (option, optionValue) in try reader.mapping(options, "rule options") {
                            values[try reader.string(option, "an option name")] = try reader.optionValue(optionValue)
                        }
                        configuration.ruleOptions[try reader.string(rule, "a rule id")] = values
                    }
                case "suppress":
                    for (pattern, rules) in try reader.mapping(node, name) {
                        configuration.suppressions.append(PathSuppression(
                            pattern: try reader.string(pattern, "a glob"), ruleIDs: Set(try reader.strings(rules, "the rules to suppress")),
                            line: document[pattern].line))
                    }
                default:
                    throw reader.error(setting, "unknown lint setting \"\(name)\" (disabled_rules, enabled_rules, only_rules, severity, include, exclude, kinds, rules, suppress)")
                }
            }
        }
        return configuration
    }

    /// Typed access to YAML nodes (by index into `document`), with errors naming the line.
    struct Reader {
        var source: String
        var document: YAMLDocument

        func error(_ node: Int, _ message: String) -> LintConfigurationError {
            LintConfigurationError(source: source, line: document[node].line, message: message)
        }

        func mapping(_ node: Int, _ what: String) throws(LintConfigurationError) -> [(Int, Int)] {
            guard case .mapping(let pairs) = document[node].content else { throw error(node, "\(what) must be a mapping (key: value)") }
            return pairs.map { ($0.key, $0.value) }
        }

        func string(_ node: Int, _ what: String) throws(LintConfigurationError) -> String {
            switch document[node].content {
            case .scalar(let text, _): return text
            case .sequence: throw error(node, "expected \(what), found a list")
            case .mapping: throw error(node, "expected \(what), found a mapping")
            }
        }

        /// A list of strings; a single string counts as a one-item list.
        func strings(_ node: Int, _ what: String) throws(LintConfigurationError) -> [String] {
            switch document[node].content {
            case .scalar(let text, _): return [text]
            case .sequence(let items):
                var out: [String] = []
                for item in items { out.append(try string(item, "a string in \(what)")) }
                return out
            case .mapping: throw error(node, "\(what) must be a list")
            }
        }

        func optionValue(_ node: Int) throws(LintConfigurationError) -> RuleOptionValue {
            switch document[node].content {
            case .sequence: return .list(try strings(node, "the option"))
            case .mapping: throw error(node, "an option value must be a scalar or a list")
            case .scalar(let text, let isPlain):
                if let i = Int(text) { return .integer(i) }
                if isPlain {
                    switch text {
                    case "true", "yes": return .bool(true)
                    case "false", "no": return .bool(false)
                    default: break
                    }
                }
                return .string(text)
            }
        }
    }
}
