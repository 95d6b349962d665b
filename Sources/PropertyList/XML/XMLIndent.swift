/// How `XMLPlistWriter` indents nested elements.
public enum XMLIndent: Hashable, Sendable {
    /// One tab per level: Apple's layout (the default).
    case tabs
    /// `n` spaces per level; `n` is clamped to `validSpaceCounts`.
    case spaces(Int)

    /// Space counts `spaces(_:)` accepts (others are clamped into this range).
    public static let validSpaceCounts = 1...16

    /// One level's indentation as bytes.
    package var bytes: [UInt8] {
        switch self {
        case .tabs: [0x09]
        case .spaces: [UInt8](repeating: 0x20, count: columns)
        }
    }

    /// Columns one level takes: a tab counts as 8, as Apple and plistlib count it for `<data>` lines.
    var columns: Int {
        switch self {
        case .tabs: 8
        case .spaces(let n): min(max(n, Self.validSpaceCounts.lowerBound), Self.validSpaceCounts.upperBound)
        }
    }
}
