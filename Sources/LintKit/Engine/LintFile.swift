import PropertyList

/// One parsed file, as rules see it.
public struct LintFile: Sendable {
    /// The path as the user named it (or as the walk found it).
    public let path: String
    public let kind: FileKind
    public let format: PlistFormat
    /// The file's bytes as read.
    public let bytes: [UInt8]
    public let value: PlistValue
    /// The rule pack's options for this run (nil when the pack has none).
    public let options: (any LintOptions)?

    public init(path: String, kind: FileKind, format: PlistFormat, bytes: [UInt8], value: PlistValue, options: (any LintOptions)? = nil) {
        self.path = path
        self.kind = kind
        self.format = format
        self.bytes = bytes
        self.value = value
        self.options = options
    }

    /// The root dictionary's value for `key`.
    public subscript(key: String) -> PlistValue? { value[key: key] }
}
