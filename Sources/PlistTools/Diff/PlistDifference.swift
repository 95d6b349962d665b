import PropertyList

/// One way two property lists differ, at a key path.
///
/// Paths of removed values count array indices in the old value; paths of added and changed
/// values count them in the new one (where the value is now).
public enum PlistDifference: Hashable, Sendable {
    /// A key or array element only the new value has.
    case added(path: KeyPath, value: PlistValue)
    /// A key or array element only the old value has.
    case removed(path: KeyPath, value: PlistValue)
    /// A value present in both that differs: a scalar with another value, or any value with
    /// another type (`"3"` to `3`, a dictionary to an array).
    case changed(path: KeyPath, old: PlistValue, new: PlistValue)

    public var path: KeyPath {
        switch self {
        case .added(let path, _), .removed(let path, _), .changed(let path, _, _): path
        }
    }

    /// `added`, `removed` or `changed`.
    public var kind: String {
        switch self {
        case .added: "added"
        case .removed: "removed"
        case .changed: "changed"
        }
    }
}

extension PlistValue {
    /// The differences that turn `self` into `other`, by key path; empty when they are equal.
    ///
    /// - Dictionaries are compared key by key: keys of `self` in its order, then keys only
    ///   `other` has, in `other`'s order. Key order alone is no difference.
    /// - Arrays are aligned on a longest common subsequence of equal elements, so one element
    ///   inserted in the middle is one `added`, not a change to every element after it.
    ///   Within a run of unmatched elements, a removed and an added element at the same
    ///   position that are both dictionaries (or both arrays) are compared recursively.
    ///   Alignment work is capped per array (`PlistDifference.maxAlignmentCells`) and per
    ///   comparison (`maxTotalAlignmentCells`); beyond that elements are compared index by
    ///   index, so time and memory stay bounded on hostile input.
    /// - Anything else that is unequal (including a change of type) is one `changed`.
    ///
    /// Recursion follows the values' nesting, which every reader caps at
    /// `PropertyListCoding.maxDepth`.
    public func differences(to other: PlistValue) -> [PlistDifference] {
        var engine = DiffEngine()
        var path: [String] = []
        engine.compare(self, other, path: &path)
        return engine.differences
    }
}

extension PlistDifference {
    /// Most cells of the LCS table (unmatched old elements × unmatched new elements, after
    /// the common prefix and suffix are set aside) one array alignment may use: 4 million
    /// 2-byte cells, 8 MB, about 2000 × 2000 elements. Larger middles are compared index
    /// by index, which is linear.
    public static let maxAlignmentCells = 4_000_000

    /// Most LCS cells one whole comparison may use, summed over all its arrays (many sibling
    /// arrays just under `maxAlignmentCells` would otherwise add up); once spent, the
    /// remaining arrays are compared index by index.
    public static let maxTotalAlignmentCells = 16 * maxAlignmentCells
}
