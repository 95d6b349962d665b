import PropertyList

extension KeyPath {
    /// The path without its last component (the root's parent is the root).
    public var parent: KeyPath { KeyPath(Array(components.dropLast())) }

    /// This path with one more component.
    public func appending(_ component: String) -> KeyPath { KeyPath(components + [component]) }
}
