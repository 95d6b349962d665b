import LintKit
import PropertyList

extension PlistValue {
    /// The value at key-path components, nil when any step is missing or of the wrong type.
    func lookup(_ components: some Collection<String>) -> PlistValue? {
        var current = self
        for component in components {
            switch current {
            case .dictionary(let d):
                guard let next = d[component] else { return nil }
                current = next
            case .array(let a):
                guard let i = Int(component), a.indices.contains(i) else { return nil }
                current = a[i]
            default: return nil
            }
        }
        return current
    }
}
