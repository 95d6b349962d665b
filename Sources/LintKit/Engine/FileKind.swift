/// What a file is, which decides the rules that check it. Rule packs add their kinds
/// (`FileKind(rawValue: "info-plist")`) and recognise them with a `FileClassifier`.
public struct FileKind: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Any property list (`*.plist`, `*.stringsdict`, files named on the command line) that
    /// no rule pack recognises as something more specific.
    public static let propertyList = FileKind(rawValue: "plist")
    /// A `.strings` file (OpenStep syntax).
    public static let strings = FileKind(rawValue: "strings")

    public var description: String { rawValue }
    public static func < (a: FileKind, b: FileKind) -> Bool { a.rawValue < b.rawValue }
}
