/// A path to a value inside a property list: dictionary keys and array indices.
///
/// Spellings accepted by `parse`:
/// - dotted: `CFBundleURLTypes.0.CFBundleURLSchemes.0`; a literal dot or backslash in a key
///   is escaped with a backslash (`com\.apple\.security\.app-sandbox`);
/// - PlistBuddy: a leading colon and colon separators, `:CFBundleURLTypes:0` (no escapes;
///   keys cannot contain `:` in this form, as in PlistBuddy).
/// A component made only of digits is an index in an array and a key in a dictionary.
public struct KeyPath: Hashable, Sendable, CustomStringConvertible {
    public var components: [String]

    public init(_ components: [String]) { self.components = components }

    /// Parses either spelling; an empty path (`""` or `:`) is the root.
    public static func parse(_ text: String) -> KeyPath {
        if text.hasPrefix(":") {
            return KeyPath(text.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
                .map(String.init).filter { !$0.isEmpty })
        }
        if text.isEmpty { return KeyPath([]) }
        var components: [String] = []
        var current = ""
        var escaping = false
        for c in text {
            if escaping {
                current.append(c)
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else if c == "." {
                components.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        if escaping { current.append("\\") }
        components.append(current)
        return KeyPath(components)
    }

    /// Escapes one key for the dotted form.
    public static func escape(_ key: String) -> String {
        guard key.contains(".") || key.contains("\\") else { return key }
        var out = ""
        for c in key {
            if c == "." || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// The dotted spelling, escaped so that `parse` gives the same components back.
    public var description: String { components.map(Self.escape).joined(separator: ".") }
}
