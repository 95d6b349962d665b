/// Rules whose findings the engine itself produces while reading a file; their `check` does
/// nothing. They are rules so that they can be configured, suppressed and documented like
/// every other. Their findings point where the reader stopped (libxml2: the end of the start
/// tag), so their examples carry no `↓` markers.

/// The file must parse as a property list.
public struct PlistSyntaxRule: LintRule {
    public static let description = RuleDescription(
        id: "plist.syntax", category: .plistHygiene, severity: .error,
        summary: "The file must parse as a property list (XML, binary, OpenStep or JSON).",
        rationale: """
            A property list that does not parse fails the build (Xcode's "The data couldn't be \
            read because it isn't in the correct format") or, in a built product, the App Store \
            upload. The message names the place libxml2 or devkit's reader stopped at.
            """,
        kinds: FileKind.all,
        triggering: [
            RuleExample("<key>CFBundleVersion</key>\n<string>1</strin>"),
            RuleExample("<key>CFBundleVersion</key>\n<integer>1.5</integer>"),
        ],
        nonTriggering: [RuleExample("<key>CFBundleVersion</key>\n<string>1</string>")])
    public init() {}
    public func check(_ file: LintFile, _ context: inout RuleContext) {}
}

/// A dictionary must not repeat a key.
public struct DuplicateKeyRule: LintRule {
    public static let description = RuleDescription(
        id: "plist.duplicate-key", category: .plistHygiene, severity: .error,
        summary: "A dictionary names the same key twice.",
        rationale: """
            Apple's parser keeps the last of two equal keys without a word, so the value the \
            app sees is not the one a reader of the file notices first (a common merge \
            mistake). devkit's readers refuse the file and name both places.
            """,
        kinds: FileKind.all,
        triggering: [RuleExample("<key>CFBundleVersion</key>\n<string>1</string>\n<key>CFBundleVersion</key>\n<string>2</string>")],
        nonTriggering: [RuleExample("<key>CFBundleVersion</key>\n<string>1</string>\n<key>CFBundleShortVersionString</key>\n<string>1.0</string>")])
    public init() {}
    public func check(_ file: LintFile, _ context: inout RuleContext) {}
}

/// A reader's remark about a file that parses (a binary set read as an array, …).
public struct ReaderWarningRule: LintRule {
    public static let description = RuleDescription(
        id: "plist.reader-warning", category: .plistHygiene, severity: .warning,
        summary: "The file parses, with a remark from the reader.",
        rationale: """
            Some inputs parse but are not what Apple's tools write (a binary plist holding a \
            set, which every reader turns into an array): worth a look before it ships.
            """,
        kinds: FileKind.all,
        triggering: [],
        nonTriggering: [RuleExample("<key>CFBundleVersion</key>\n<string>1</string>")])
    public init() {}
    public func check(_ file: LintFile, _ context: inout RuleContext) {}
}
