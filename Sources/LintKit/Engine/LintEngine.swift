import Diagnostics
import PlistTools
import PropertyList

/// Runs rules over files: reads and classifies each file, runs the rules that apply to its
/// kind, turns key paths into lines and columns, applies suppression comments and the
/// configured severities. Immutable and `Sendable`, so one engine serves every worker thread.
public struct LintEngine: Sendable {
    /// A rule as configured for this run.
    struct ActiveRule: Sendable {
        var rule: any LintRule
        var description: RuleDescription
        var severity: Severity
        var options: [String: RuleOptionValue]
    }

    public let configuration: LintConfiguration
    /// The rule pack's options, handed to every rule with each file.
    public let options: (any LintOptions)?
    /// The current directory (absolute), to match config globs against relative paths.
    public let currentDirectory: String
    /// How files get their kinds (the registry's).
    private let classifier: any FileClassifier
    private let active: [ActiveRule]
    /// Indices into `active` of the rules that check each kind (computed once, not per file).
    private let rulesByKind: [FileKind: [Int]]

    /// Throws when the configuration names a rule or option the registry does not have.
    public init(registry: RuleRegistry, configuration: LintConfiguration = LintConfiguration(),
                options: (any LintOptions)? = nil, currentDirectory: String = "/") throws(LintConfigurationError) {
        try registry.validate(configuration)
        self.configuration = configuration
        self.options = options
        self.currentDirectory = currentDirectory
        self.classifier = registry.classifier
        let active: [ActiveRule] = registry.rules.compactMap { rule in
            let description = type(of: rule).description
            guard configuration.isEnabled(description) else { return nil }
            var values: [String: RuleOptionValue] = [:]
            for option in description.options { values[option.name] = option.defaultValue }
            for (name, value) in configuration.ruleOptions[description.id] ?? [:] { values[name] = value }
            return ActiveRule(rule: rule, description: description,
                              severity: configuration.severities[description.id] ?? description.severity, options: values)
        }
        var byKind: [FileKind: [Int]] = [:]
        for (index, rule) in active.enumerated() {
            for kind in rule.description.kinds { byKind[kind, default: []].append(index) }
        }
        self.active = active
        self.rulesByKind = byKind
    }

    /// The ids the engine reports its own findings under, when the registry has rules with
    /// them (the plist pack's `PlistSyntaxRule`, `DuplicateKeyRule`, `ReaderWarningRule`): a
    /// file that does not parse, a key given twice, a reader's remark about a file that does.
    public static let syntaxRuleID = "plist.syntax"
    public static let duplicateKeyRuleID = "plist.duplicate-key"
    public static let readerWarningRuleID = "plist.reader-warning"

    /// The rules that run, in registry order (for SARIF and `--list-rules`).
    public var activeRules: [RuleDescription] { active.map(\.description) }

    // MARK: Files

    /// `path` relative to the config file's directory, for glob matching.
    public func configRelativePath(_ path: String) -> String {
        if configuration.baseDirectory == nil, !path.hasPrefix("./") { return path }
        var p = path
        while p.hasPrefix("./") { p.removeFirst(2) }
        guard let base = configuration.baseDirectory else { return p }
        let absolute = Path.normalize(p.hasPrefix("/") ? p : currentDirectory + "/" + p)
        if absolute == base { return "." }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// Whether the config excludes `path` (file or directory).
    public func isExcluded(_ path: String) -> Bool {
        let relative = configRelativePath(path)
        return configuration.exclude.contains { $0.matches(relative) }
    }

    /// Whether a directory walk lints `path`: a known kind (or a config kind override),
    /// within `include` if set, not excluded.
    public func walkIncludes(_ path: String) -> Bool {
        guard !isExcluded(path) else { return false }
        let relative = configRelativePath(path)
        if !configuration.include.isEmpty, !configuration.include.contains(where: { $0.matches(relative) }) { return false }
        return configuredKind(relative) != nil || classifier.kind(forName: path) != nil
    }

    private func configuredKind(_ relative: String) -> FileKind? {
        configuration.kinds.first(where: { $0.glob.matches(relative) })?.kind
    }

    // MARK: Linting

    /// Lints one file from its bytes; parse errors become findings (`plist.syntax`,
    /// `plist.duplicate-key`). `kind` nil: from the config, the name, then the content.
    public func lint(path: String, bytes: [UInt8], kind: FileKind? = nil) -> [Finding] {
        let configured = kind ?? configuredKind(configRelativePath(path))
        let byName = configured ?? classifier.kind(forName: path) ?? .propertyList
        let document: PlistDocument
        do {
            document = try PropertyListCoding.read(bytes, format: classifier.format(of: byName))
        } catch {
            let id = error.code == .duplicateKey ? Self.duplicateKeyRuleID : Self.syntaxRuleID
            guard let rule = active.first(where: { $0.description.id == id }) else { return [] }
            if let suppressions = Suppressions.scan(bytes, format: classifier.format(of: byName) ?? PlistFormat.detect(bytes)),
               Suppressions.silences(suppressions.scopes(in: nil), ruleID: id, path: nil) { return [] }
            if configSuppressions(for: path).contains(where: { $0.silences(ruleID: id, path: nil) }) { return [] }
            return [Finding(file: path, location: error.position, severity: rule.severity, ruleID: id, message: error.message)]
        }
        let fileKind = configured ?? classifier.refine(byName, value: document.value)
        let file = LintFile(path: path, kind: fileKind, format: document.format, bytes: bytes, value: document.value, options: options)
        return lint(file, readerWarnings: document.warnings)
    }

    /// Lints an already-read file (for rule packs whose files are not plain plists, such as
    /// a provisioning profile's decoded payload). Positions are resolved for XML, JSON and
    /// OpenStep (line and column) and binary (byte offset) bytes.
    ///
    /// `only`: run just these rules (of those active), for a check that lints a file again
    /// for what the first pass could not know (an extension against its app).
    public func lint(_ file: LintFile, readerWarnings: [PlistWarning] = [], only ruleIDs: Set<String>? = nil) -> [Finding] {
        var collected: [(rule: Int, pending: RuleContext.Pending)] = []
        for index in rulesByKind[file.kind] ?? [] where ruleIDs?.contains(active[index].description.id) ?? true {
            var context = RuleContext(ruleID: active[index].description.id, ruleOptions: active[index].options)
            active[index].rule.check(file, &context)
            if !context.pending.isEmpty { collected += context.pending.map { (index, $0) } }
        }
        var findings: [Finding] = []
        if let warningRule = active.first(where: { $0.description.id == Self.readerWarningRuleID }) {
            findings = readerWarnings.map {
                Finding(file: file.path, location: $0.position, severity: warningRule.severity,
                        ruleID: warningRule.description.id, message: $0.message)
            }
        }
        guard !collected.isEmpty else { return findings }

        // Positions and suppressions need a second, recording read; only files with findings pay it.
        let suppressions = Suppressions.scan(file.bytes, format: file.format)
        let map: PlistSourceMap? = switch file.format {
        case .xml: try? PlistSourceMap(xml: file.bytes)
        case .binary: try? PlistSourceMap(binary: file.bytes)
        case .json: try? PlistSourceMap(json: file.bytes, focus: collected.map(\.pending.path.components))
        case .openStep: try? PlistSourceMap(openStep: file.bytes)
        }
        let scopes = suppressions?.scopes(in: map) ?? []
        let configured = configSuppressions(for: file.path)
        for (index, pending) in collected {
            let rule = active[index]
            if !scopes.isEmpty, Suppressions.silences(scopes, ruleID: rule.description.id, path: pending.path.components) { continue }
            if configured.contains(where: { $0.silences(ruleID: rule.description.id, path: pending.path.components) }) { continue }
            let location = map?.position(of: pending.path.components)
            findings.append(Finding(file: file.path, location: location,
                                    severity: rule.severity, ruleID: rule.description.id, message: pending.message, fix: pending.fix,
                                    keyPath: pending.path))
        }
        return findings.sorted(by: Self.inFileOrder)
    }

    /// The config's `suppress:` entries whose glob matches `path`.
    private func configSuppressions(for path: String) -> [PathSuppression] {
        guard !configuration.suppressions.isEmpty else { return [] }
        let relative = configRelativePath(path)
        return configuration.suppressions.filter { $0.glob.matches(relative) }
    }

    /// Findings in one file by position (position-less first), then rule id; stable otherwise.
    public static func inFileOrder(_ a: Finding, _ b: Finding) -> Bool {
        func key(_ f: Finding) -> (Int, Int) {
            switch f.location {
            case nil: (0, 0)
            case .text(let l, let c)?: (l, c)
            case .byteOffset(let o)?: (0, o)
            case .line(let l)?: (l, 0)
            }
        }
        let ka = key(a), kb = key(b)
        if ka != kb { return ka < kb }
        return a.ruleID < b.ruleID
    }
}
