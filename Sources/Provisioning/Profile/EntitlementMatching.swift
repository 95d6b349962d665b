import PropertyList

/// Whether a profile grants what an app asks for, by Apple's rules for entitlement values:
/// a trailing `*` in a granted string is a wildcard (`ABCDE12345.*`,
/// `ABCDE12345.com.example.*`, `*`), a granted array allows any of its elements, asking for
/// `false` needs no grant.
public enum EntitlementMatching {
    /// True when `pattern` (possibly ending in `*`) matches `value`.
    public static func matches(pattern: String, _ value: String) -> Bool {
        if pattern.hasSuffix("*") { return value.hasPrefix(pattern.dropLast()) }
        return pattern == value
    }

    /// True when the granted value allows the requested one.
    public static func grants(_ granted: PlistValue, _ requested: PlistValue) -> Bool {
        switch (granted, requested) {
        case (_, .bool(false)): return true
        case (.bool(let g), .bool(let r)): return g == r
        case (.string(let g), .string(let r)): return matches(pattern: g, r)
        case (.array(let g), .string(let r)):
            return g.contains { if case .string(let p) = $0 { matches(pattern: p, r) } else { false } }
        case (_, .array(let items)):
            return items.allSatisfy { grants(granted, $0) }
        default: return granted == requested
        }
    }
}
