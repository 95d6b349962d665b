import OrderedCollections

extension PlistValue {
    /// Values in the tree, dictionary keys included (sizes writers' buffers and tables).
    public var nodeCount: Int {
        switch self {
        case .array(let items): items.reduce(1) { $0 + $1.nodeCount }
        case .dictionary(let dict): dict.values.reduce(1 + dict.count) { $0 + $1.nodeCount }
        default: 1
        }
    }

    /// The same value with every dictionary's keys in ascending order (by Unicode scalars),
    /// for comparisons with tools that do not keep order and for `--sort-keys` output.
    public func sortingKeys() -> PlistValue {
        switch self {
        case .array(let items):
            return .array(items.map { $0.sortingKeys() })
        case .dictionary(let dict):
            var sorted = OrderedDictionary<String, PlistValue>(minimumCapacity: dict.count)
            for key in dict.keys.sorted(by: { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }) {
                sorted[key] = dict[key]?.sortingKeys()
            }
            return .dictionary(sorted)
        default:
            return self
        }
    }
}
