/// Byte order of a multi-byte integer.
public enum Endianness: Sendable {
    case little
    case big
}
