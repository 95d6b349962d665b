import Diagnostics

/// A file a rule's tests lint: a plist snippet, the name it is linted under (which decides its
/// kind) and the options in effect.
///
/// `source` is a whole XML plist, or only the body of the root `<dict>` (it is wrapped in
/// Apple's header then), or a whole JSON document (it starts with `{`: String Catalogs).
/// `↓` marks where a finding must point: in XML just before the `<key>` of a dictionary
/// entry, or before the element of an array item or of the root; in JSON just before the
/// value the finding's key path names. The markers are removed before linting; a triggering
/// example without markers only needs some finding.
public struct RuleExample: Sendable {
    public var source: String
    /// Overrides the rule's default file name (`Info.plist`, `App.entitlements`, …).
    public var fileName: String?
    /// The rule pack's options the snippet is linted with (nil: none).
    public var options: (any LintOptions)?
    public var ruleOptions: [String: RuleOptionValue]
    /// Lint the snippet converted to this format (to test binary-only behaviour).
    public var format: PlistFormatChoice
    /// For fixable rules: the fixed file must lint clean (checked by the example tests).
    public var expectsFix: Bool

    public enum PlistFormatChoice: Sendable, Hashable { case asWritten, binary }

    public init(_ source: String, fileName: String? = nil, options: (any LintOptions)? = nil,
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
    public var document: (text: String, markers: [SourcePosition]) {
        let trimmed = source.drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" })
        let whole = trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<plist") || trimmed.hasPrefix("<!DOCTYPE")
            || trimmed.hasPrefix("{") || trimmed.hasPrefix("↓{")
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
        var markers: [SourcePosition] = []
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
