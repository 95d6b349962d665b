import OrderedCollections

extension PlistValue {
    /// Runs `body` on the value at `components`, in place; nil when the path does not exist.
    /// Containers are moved out of `self` while the child is edited so the edit stays in place
    /// (no copy of the whole subtree).
    package mutating func modifyValue<R>(at components: ArraySlice<String>, _ body: (inout PlistValue) -> R) -> R? {
        guard let first = components.first else { return body(&self) }
        let rest = components.dropFirst()
        switch self {
        case .dictionary(var dict):
            guard dict[first] != nil else { return nil }
            self = .bool(false)
            let result = dict[first]?.modifyValue(at: rest, body)
            self = .dictionary(dict)
            return result ?? nil
        case .array(var items):
            guard let index = Int(first), index >= 0, index < items.count else { return nil }
            self = .bool(false)
            let result = items[index].modifyValue(at: rest, body)
            self = .array(items)
            return result
        default:
            return nil
        }
    }

    /// Replaces the existing value at `path`; false when there is none.
    @discardableResult
    public mutating func setValue(_ newValue: PlistValue, at path: KeyPath) -> Bool {
        modifyValue(at: path.components[...]) { $0 = newValue } != nil
    }

    /// Adds `newValue` at `path`, which must not exist yet. In an array the last component is
    /// the index to insert at; an index equal to the count appends.
    @discardableResult
    public mutating func insertValue(_ newValue: PlistValue, at path: KeyPath) -> PlistInsertOutcome {
        guard let last = path.components.last else { return .alreadyExists }
        let outcome = modifyValue(at: path.components.dropLast()) { parent -> PlistInsertOutcome in
            switch parent {
            case .dictionary(var dict):
                guard dict[last] == nil else { return .alreadyExists }
                parent = .bool(false)
                dict[last] = newValue
                parent = .dictionary(dict)
                return .inserted
            case .array(var items):
                guard let index = Int(last), index >= 0, index <= items.count else { return .invalidPosition }
                parent = .bool(false)
                items.insert(newValue, at: index)
                parent = .array(items)
                return .inserted
            default:
                return .invalidPosition
            }
        }
        return outcome ?? .parentMissing
    }

    /// Removes and returns the value at `path`; nil when there is none (the root cannot be removed).
    @discardableResult
    public mutating func removeValue(at path: KeyPath) -> PlistValue? {
        guard let last = path.components.last else { return nil }
        let removed = modifyValue(at: path.components.dropLast()) { parent -> PlistValue? in
            switch parent {
            case .dictionary(var dict):
                guard dict[last] != nil else { return nil }
                parent = .bool(false)
                let value = dict.removeValue(forKey: last)
                parent = .dictionary(dict)
                return value
            case .array(var items):
                guard let index = Int(last), index >= 0, index < items.count else { return nil }
                parent = .bool(false)
                let value = items.remove(at: index)
                parent = .array(items)
                return value
            default:
                return nil
            }
        }
        return removed ?? nil
    }
}
