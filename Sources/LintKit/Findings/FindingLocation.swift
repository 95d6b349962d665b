import PropertyList

/// Where a finding points inside its file.
public enum FindingLocation: Hashable, Sendable, Codable {
    /// 1-based line and column.
    case text(line: Int, column: Int)
    /// Byte offset (binary files).
    case byteOffset(Int)
}
