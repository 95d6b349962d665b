/// What `PlistValue.insertValue(_:at:)` found when it could not insert.
public enum PlistInsertOutcome: Hashable, Sendable {
    case inserted
    /// The path (or its key) already names a value.
    case alreadyExists
    /// The parent container does not exist.
    case parentMissing
    /// The parent is a scalar, or an array and the last component is not an index `0...count`.
    case invalidPosition
}
