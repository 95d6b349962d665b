/// Where in a file something is: a text position or a byte offset.
public enum SourcePosition: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 1-based line and column (columns count bytes, as compilers do; in XML they count
    /// characters, as XML parsers do).
    case text(line: Int, column: Int)
    /// Byte offset from the start of the file (binary formats).
    case byteOffset(Int)
    /// A 1-based line, where the column is not known (line-oriented inputs such as crash logs).
    case line(Int)

    /// `line:col`, `offset 0x1a2` or `line`.
    public var description: String {
        switch self {
        case .text(let line, let column): "\(line):\(column)"
        case .byteOffset(let offset): "offset 0x\(String(offset, radix: 16))"
        case .line(let line): "\(line)"
        }
    }
}
