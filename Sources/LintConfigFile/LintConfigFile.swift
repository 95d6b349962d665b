import Diagnostics
import System
import LintKit
import Yams

/// `.devkit.yml`: the lint settings of a project, found upward from the current directory.
///
/// ```yaml
/// lint:
///   disabled_rules: [infoplist.deprecated-key]
///   enabled_rules: [plist.non-canonical-format]     # rules that are off by default
///   severity: {infoplist.arbitrary-loads: error}    # error | warning | info
///   include: ["App/**"]                             # directory walks lint only these
///   exclude: ["Pods", "**/Generated/*.plist"]
///   kinds: {"Config/*.xcent.plist": entitlements}   # info-plist | entitlements | ota-manifest | plist | strings
///   rules: {plist.large-data: {max_bytes: 4096}}
/// ```
///
/// Globs are relative to the file's directory. Unknown keys, kinds and severities are errors
/// naming the line, so a typo does not silently leave a rule on.
///
/// Parsed with Yams (libyaml). Yams imports Foundation, so linking this module costs the
/// devkit binary some start-up time (measured in the README).
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
        return try parse(String(decoding: bytes, as: UTF8.self), source: path, baseDirectory: "/" + directory)
    }

    /// Parses the text of a config file; `baseDirectory` (absolute) anchors its globs.
    public static func parse(_ text: String, source: String, baseDirectory: String) throws(LintConfigurationError) -> LintConfiguration {
        var configuration = LintConfiguration()
        configuration.source = source
        configuration.baseDirectory = Path.normalize(baseDirectory)
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            throw LintConfigurationError(source: source, message: "not valid YAML: \(error)")
        }
        guard let root else { return configuration }
        let reader = Reader(source: source)
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
                                                         line: kindNode.mark.map { $0.line }))
                    }
                case "rules":
                    for (rule, options) in try reader.mapping(node, name) {
                        var values: [String: RuleOptionValue] = [:]
                        for (option, optionValue) in try reader.mapping(options, "rule options") {
                            values[try reader.string(option, "an option name")] = try reader.optionValue(optionValue)
                        }
                        configuration.ruleOptions[try reader.string(rule, "a rule id")] = values
                    }
                default:
                    throw reader.error(setting, "unknown lint setting \"\(name)\" (disabled_rules, enabled_rules, only_rules, severity, include, exclude, kinds, rules)")
                }
            }
        }
        return configuration
    }

    /// Typed access to YAML nodes, with errors naming the line.
    struct Reader {
        var source: String

        func error(_ node: Node, _ message: String) -> LintConfigurationError {
            LintConfigurationError(source: source, line: node.mark.map { $0.line }, message: message)
        }

        func mapping(_ node: Node, _ what: String) throws(LintConfigurationError) -> [(Node, Node)] {
            guard let mapping = node.mapping else { throw error(node, "\(what) must be a mapping (key: value)") }
            return mapping.map { ($0.key, $0.value) }
        }

        func string(_ node: Node, _ what: String) throws(LintConfigurationError) -> String {
            guard let scalar = node.scalar else { throw error(node, "expected \(what), found a \(node.sequence != nil ? "list" : "mapping")") }
            return scalar.string
        }

        /// A list of strings; a single string counts as a one-item list.
        func strings(_ node: Node, _ what: String) throws(LintConfigurationError) -> [String] {
            if let scalar = node.scalar { return [scalar.string] }
            guard let sequence = node.sequence else { throw error(node, "\(what) must be a list") }
            var out: [String] = []
            for item in sequence { out.append(try string(item, "a string in \(what)")) }
            return out
        }

        func optionValue(_ node: Node) throws(LintConfigurationError) -> RuleOptionValue {
            if node.sequence != nil { return .list(try strings(node, "the option")) }
            guard let scalar = node.scalar else { throw error(node, "an option value must be a scalar or a list") }
            if let i = Int(scalar.string) { return .integer(i) }
            if scalar.style == .plain {
                switch scalar.string {
                case "true", "yes": return .bool(true)
                case "false", "no": return .bool(false)
                default: break
                }
            }
            return .string(scalar.string)
        }
    }
}
