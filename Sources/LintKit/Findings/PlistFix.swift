import PlistTools
import PropertyList

/// An edit that resolves a finding, applied through the lossless editor (`PlistEditor`:
/// XML and OpenStep in place, so every byte outside the edited node stays as it was; binary
/// and JSON by value).
public enum PlistFix: Hashable, Sendable, CustomStringConvertible {
    /// One edit of the value model (replace, insert, delete, rename a key).
    case edit(PlistEdit)
    /// Rewrite the whole file in canonical layout (the formatting rule only).
    case reformat

    public var description: String {
        switch self {
        case .edit(.replace(let path, let value)): "set \(path) to \(value.shortDescription)"
        case .edit(.insert(let path, let value)): "add \(path) = \(value.shortDescription)"
        case .edit(.delete(let path)): "delete \(path)"
        case .edit(.renameKey(let path, let key)): "rename \(path) to \"\(key)\""
        case .reformat: "reformat the file"
        }
    }

    /// The key path the fix edits (the root for a reformat).
    public var path: KeyPath {
        switch self {
        case .edit(let edit): edit.path
        case .reformat: KeyPath([])
        }
    }
}
