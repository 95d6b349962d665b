import PropertyList

/// One change to a property list, in terms of key paths. Every editable document (XML and
/// OpenStep text kept as written, binary and JSON by value) applies the same four edits, and
/// `check(in:)` decides once, on the value, whether an edit is possible and what the error
/// message is, so all formats refuse the same edits with the same words.
public enum PlistEdit: Hashable, Sendable {
    /// Replaces the existing value at the path (any type, containers included).
    case replace(KeyPath, PlistValue)
    /// Adds a value: a new key in a dictionary, or an element at an index of an array
    /// (an index equal to the count appends).
    case insert(KeyPath, PlistValue)
    /// Removes a dictionary entry or an array element.
    case delete(KeyPath)
    /// Renames a dictionary key, keeping the entry's place and value.
    case renameKey(KeyPath, to: String)

    public var path: KeyPath {
        switch self {
        case .replace(let p, _), .insert(let p, _), .delete(let p), .renameKey(let p, _): p
        }
    }

    /// Throws, naming the key path, when this edit cannot be applied to `root`. `verb` names
    /// the user's command in the message when it is not the edit's own ("set" adding a key).
    public func check(in root: PlistValue, verb: String? = nil) throws(PlistError) {
        let path = self.path
        switch self {
        case .replace:
            try Self.existing(root, path, verb: "set")
        case .delete:
            guard !path.components.isEmpty else { throw PlistError(position: nil, message: "cannot delete the root value") }
            try Self.existing(root, path, verb: "delete")
        case .renameKey(_, let newKey):
            guard let key = path.components.last else { throw PlistError(position: nil, message: "cannot rename the root value") }
            try Self.existing(root, path, verb: "rename")
            let parent = try Self.existing(root, path.parent, verb: "rename")
            guard case .dictionary(let dict) = parent else {
                throw PlistError(position: nil, message: "cannot rename \"\(path)\": it is an element of an array, not a dictionary entry")
            }
            if newKey != key, dict[newKey] != nil {
                throw PlistError(position: nil, message: "cannot rename \"\(path)\" to \"\(newKey)\": that key already exists")
            }
        case .insert:
            guard let last = path.components.last else { throw PlistError(position: nil, message: "cannot insert at the root") }
            let parent = try Self.existing(root, path.parent, verb: verb ?? "insert at")
            switch parent {
            case .dictionary(let dict):
                if dict[last] != nil {
                    throw PlistError(position: nil, message: "cannot add \"\(path)\": the key already exists (use set to replace it)")
                }
            case .array(let items):
                guard let index = Int(last), index >= 0, index <= items.count else {
                    throw PlistError(position: nil, message: "cannot \(verb ?? "insert at") \"\(path)\": \"\(last)\" is not an index in 0...\(items.count) (the array has \(items.count) element\(items.count == 1 ? "" : "s"))")
                }
            default:
                throw PlistError(position: nil, message: "cannot \(verb ?? "insert at") \"\(path)\": \"\(path.parent)\" is a \(parent.typeName), not a dictionary or array")
            }
        }
    }

    /// Applies this edit to a value; call `check(in:)` first (an edit that fails it is ignored).
    public func apply(to root: inout PlistValue) {
        switch self {
        case .replace(let path, let value):
            root.setValue(value, at: path)
        case .insert(let path, let value):
            root.insertValue(value, at: path)
        case .delete(let path):
            root.removeValue(at: path)
        case .renameKey(let path, let newKey):
            guard let key = path.components.last, key != newKey else { return }
            root.modifyValue(at: path.parent.components[...]) { parent in
                guard case .dictionary(var dict) = parent, let index = dict.index(forKey: key) else { return }
                parent = .bool(false)
                let value = dict.values[index]
                dict.remove(at: index)
                dict.updateValue(value, forKey: newKey, insertingAt: index)
                parent = .dictionary(dict)
            }
        }
    }

    @discardableResult
    static func existing(_ root: PlistValue, _ path: KeyPath, verb: String) throws(PlistError) -> PlistValue {
        do { return try root.value(at: path) } catch {
            throw PlistError(position: nil, message: "cannot \(verb) \"\(path)\": \(error.message)")
        }
    }
}
