extension PlistValue {
    /// Frees `value` one level at a time, without recursion, and leaves `false` in its place.
    ///
    /// Freeing a nested value the ordinary way releases each container from inside its
    /// parent's release, one call per level: a few thousand levels (a MetricKit call stack
    /// read with a raised depth limit) can overflow a thread's stack. Here each container's
    /// children are taken into a worklist before the container goes, so no release ever frees
    /// more than one level. References are dropped explicitly (not left to the optimiser's
    /// moves), so this holds in debug builds too. Levels shared with other owners stay alive.
    public static func releaseIteratively(_ value: inout PlistValue) {
        guard value.isNestable else { return }
        var pending: [PlistValue] = [value]
        value = .bool(false)
        while var next = pending.popLast() {
            switch next {
            case .array(var items):
                // `next` lets go first, so `items` is the container's only owner.
                next = .bool(false)
                for item in items where item.isNestable { pending.append(item) }
                // The buffer goes here: each child is still held by `pending`.
                items = []
            case .dictionary(var entries):
                next = .bool(false)
                for item in entries.values where item.isNestable { pending.append(item) }
                entries = [:]
            default:
                break
            }
        }
    }

    /// An array or dictionary: what can hold further levels.
    fileprivate var isNestable: Bool {
        switch self {
        case .array, .dictionary: true
        default: false
        }
    }
}
