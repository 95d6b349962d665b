public enum ChainResult: Sendable, Equatable {
    /// No trust roots were given, so the chain was not checked.
    case notVerified
    /// The chain ends at this trusted root (its common name).
    case trusted(root: String)
    /// Trust roots were given and no path reaches one.
    case untrusted(String)
}
