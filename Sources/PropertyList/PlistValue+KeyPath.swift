extension PlistValue {
    /// The value at `path`; the error names the missing part and lists what exists there.
    public func value(at path: KeyPath) throws(KeyPathError) -> PlistValue {
        var current = self
        for (i, component) in path.components.enumerated() {
            let parent = KeyPath(Array(path.components[..<i]))
            let parentName = i == 0 ? "the root" : "\"\(parent)\""
            switch current {
            case .dictionary(let dict):
                guard let next = dict[component] else {
                    let keys = dict.keys.prefix(20).map { "\"\($0)\"" }.joined(separator: ", ")
                    let more = dict.count > 20 ? ", … (\(dict.count) keys)" : ""
                    throw KeyPathError(path: path, matched: i, message: dict.isEmpty
                        ? "key \"\(component)\" not found: \(parentName) is an empty dictionary"
                        : "key \"\(component)\" not found in \(parentName); keys there: \(keys)\(more)")
                }
                current = next
            case .array(let items):
                guard let index = Int(component), index >= 0 else {
                    throw KeyPathError(path: path, matched: i, message: "\"\(component)\" is not an index, and \(parentName) is an array of \(items.count)")
                }
                guard index < items.count else {
                    throw KeyPathError(path: path, matched: i, message: "index \(index) is out of range: \(parentName) is an array of \(items.count)")
                }
                current = items[index]
            default:
                throw KeyPathError(path: path, matched: i, message: "cannot look up \"\(component)\": \(parentName) is a \(current.typeName), not a dictionary or array")
            }
        }
        return current
    }
}
