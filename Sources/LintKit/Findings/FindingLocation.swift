import PropertyList

/// Where a finding points inside its file.
public enum FindingLocation: Hashable, Sendable, Codable {
    /// 1-based line and column.
    case text(line: Int, column: Int)
    /// Byte offset (binary files).
    case byteOffset(Int)

    /// Where a reader's position points.
    public init(_ position: SourcePosition) {
        switch position {
        case .text(let line, let column): self = .text(line: line, column: column)
        case .byteOffset(let offset): self = .byteOffset(offset)
        }
    }
}
