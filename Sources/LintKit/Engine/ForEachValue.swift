import PropertyList

/// Every value in a plist with its key-path components, depth first in file order; for rules
/// that look at all keys or strings. The components array is reused between calls (no
/// allocation per value): make a `KeyPath` of it only to report.
public func forEachValue(in value: PlistValue, _ body: (_ path: [String], _ value: PlistValue) -> Void) {
    var path: [String] = []
    path.reserveCapacity(16)
    walk(value, &path, body)
}

/// Recursion depth is bounded by the readers' nesting limit (`PropertyListCoding.maxDepth`).
private func walk(_ value: PlistValue, _ path: inout [String], _ body: (_ path: [String], _ value: PlistValue) -> Void) {
    body(path, value)
    switch value {
    case .dictionary(let d):
        for (key, child) in d {
            path.append(key)
            walk(child, &path, body)
            path.removeLast()
        }
    case .array(let a):
        for (index, child) in a.enumerated() {
            path.append(String(index))
            walk(child, &path, body)
            path.removeLast()
        }
    default: break
    }
}
