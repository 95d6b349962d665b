/// One lint rule: a small type whose `description` documents it (id, severity, rationale,
/// examples) and whose `check` reports findings for one file.
///
/// To add a rule: write a type conforming to `LintRule` in its own file, give it triggering
/// and non-triggering examples (they are run as tests, and `devkit lint --explain` prints
/// them), and add the type to a rule pack's list (`PlistRules.all`, or your own pack, passed
/// to `RuleRegistry`). Report with `context.report(_:at:)`, naming the key path the finding
/// is about; the engine turns it into a line and column, applies suppressions, configured
/// severities and `--fix`.
///
/// ```swift
/// public struct BundleVersionFormat: LintRule {
///     public static let description = RuleDescription(
///         id: "infoplist.bundle-version-format", category: .infoPlist, severity: .error,
///         summary: "CFBundleVersion is one to three period-separated integers.",
///         rationale: "…", kinds: [.infoPlist],
///         triggering: [RuleExample("<key>CFBundleVersion</key>\n↓<string>1.0b</string>")],
///         nonTriggering: [RuleExample("<key>CFBundleVersion</key>\n<string>142</string>")])
///     public init() {}
///     public func check(_ file: LintFile, _ context: inout RuleContext) { … }
/// }
/// ```
public protocol LintRule: Sendable {
    /// Identity and documentation; also decides which files the rule sees.
    static var description: RuleDescription { get }
    init()
    /// Reports findings for `file` through `context`. Must not trap on any value: files are
    /// user input, so every type and shape is possible.
    func check(_ file: LintFile, _ context: inout RuleContext)
}

/// A group of rules, for listing and for SARIF's `properties.category`.
public struct RuleCategory: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let plistHygiene = RuleCategory(rawValue: "plist-hygiene")
    public static let infoPlist = RuleCategory(rawValue: "info-plist")
    public static let entitlements = RuleCategory(rawValue: "entitlements")
    public static let otaManifest = RuleCategory(rawValue: "ota-manifest")

    public static func < (a: RuleCategory, b: RuleCategory) -> Bool { a.rawValue < b.rawValue }
}

/// A rule's documentation and defaults.
public struct RuleDescription: Sendable, Hashable {
    /// Stable, dotted identifier (`infoplist.short-version-format`): used in config files,
    /// suppression comments and every output format.
    public var id: String
    public var category: RuleCategory
    public var severity: Severity
    /// One line: what the rule wants.
    public var summary: String
    /// Why it matters (which App Store error or runtime failure it prevents).
    public var rationale: String
    /// The file kinds the rule checks.
    public var kinds: Set<FileKind>
    /// Off-by-default rules run only when enabled in the config or with `--enable`.
    public var isEnabledByDefault: Bool
    /// Whether findings can carry a fix for `--fix`.
    public var isFixable: Bool
    /// Options the rule reads (config `rules: {id: {name: value}}`), with their defaults.
    public var options: [RuleOption]
    /// Files that must produce at least one finding of this rule; `↓` marks each position.
    public var triggering: [RuleExample]
    /// Files that must produce none.
    public var nonTriggering: [RuleExample]

    public init(id: String, category: RuleCategory, severity: Severity, summary: String, rationale: String,
                kinds: Set<FileKind>, isEnabledByDefault: Bool = true, isFixable: Bool = false, options: [RuleOption] = [],
                triggering: [RuleExample], nonTriggering: [RuleExample]) {
        self.id = id
        self.category = category
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
        self.kinds = kinds
        self.isEnabledByDefault = isEnabledByDefault
        self.isFixable = isFixable
        self.options = options
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}

/// A value given to a rule option in the config file.
public enum RuleOptionValue: Hashable, Sendable, CustomStringConvertible {
    case integer(Int)
    case string(String)
    case bool(Bool)
    case list([String])

    public var description: String {
        switch self {
        case .integer(let i): "\(i)"
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .list(let l): "[" + l.joined(separator: ", ") + "]"
        }
    }
}

/// One option a rule reads, with its default (for `--explain` and config validation).
public struct RuleOption: Sendable, Hashable {
    public var name: String
    public var defaultValue: RuleOptionValue
    public var summary: String
    public init(_ name: String, default defaultValue: RuleOptionValue, _ summary: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.summary = summary
    }
}

/// A file a rule's tests lint: a plist snippet, the name it is linted under (which decides its
/// kind) and the options in effect.
///
/// `source` is a whole XML plist, or only the body of the root `<dict>` (it is wrapped in
/// Apple's header then). `↓` marks where a finding must point: just before the `<key>` of a
/// dictionary entry, or before the element of an array item or of the root. The markers are
/// removed before linting; a triggering example without markers only needs some finding.
public struct RuleExample: Sendable, Hashable {
    public var source: String
    /// Overrides the rule's default file name (`Info.plist`, `App.entitlements`, …).
    public var fileName: String?
    public var options: LintOptions
    public var ruleOptions: [String: RuleOptionValue]
    /// Lint the snippet converted to this format (to test binary-only behaviour).
    public var format: PlistFormatChoice
    /// For fixable rules: the fixed file must lint clean (checked by the example tests).
    public var expectsFix: Bool

    public enum PlistFormatChoice: Sendable, Hashable { case asWritten, binary }

    public init(_ source: String, fileName: String? = nil, options: LintOptions = LintOptions(),
                ruleOptions: [String: RuleOptionValue] = [:], format: PlistFormatChoice = .asWritten, expectsFix: Bool = false) {
        self.source = source
        self.fileName = fileName
        self.options = options
        self.ruleOptions = ruleOptions
        self.format = format
        self.expectsFix = expectsFix
    }

    static let marker = "↓"

    /// The plist text with markers removed, and the marked positions (1-based line, byte column).
    public var document: (text: String, markers: [FindingLocation]) {
        let trimmed = source.drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" })
        let whole = trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<plist") || trimmed.hasPrefix("<!DOCTYPE")
        let text = whole ? source : """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(source)
            </dict>
            </plist>

            """
        var out = ""
        var markers: [FindingLocation] = []
        var line = 1, column = 1
        for character in text {
            if String(character) == Self.marker {
                markers.append(.text(line: line, column: column))
                continue
            }
            out.append(character)
            if character == "\n" { line += 1; column = 1 } else { column += character.utf8.count }
        }
        return (out, markers)
    }
}
