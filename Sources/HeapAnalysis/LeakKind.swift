/// How the exit scan found a block alive at exit, in valgrind memcheck's terms
/// (`--show-leak-kinds`): the four kinds of its leak summary.
public enum LeakKind: String, Sendable, CaseIterable, Hashable {
    /// Nothing points to it, or only blocks that are themselves lost and lead their own clique
    /// (memcheck's `Leak_DefinitelyLost`).
    case definitelyLost
    /// Reachable only from definitely lost blocks (`Leak_IndirectlyLost`): fixing the
    /// definite leak above it frees it too.
    case indirectlyLost
    /// Reached, but only through a pointer into its middle somewhere on the way
    /// (`Leak_PossiblyLost`): a leak unless the program keeps interior pointers on purpose.
    case possiblyLost
    /// Reachable from the roots through pointers to block starts (`Leak_StillReachable`):
    /// abandoned rather than leaked, never freed.
    case stillReachable

    /// The words of the text report and of the page ("definitely lost").
    public var title: String {
        switch self {
        case .definitelyLost: "definitely lost"
        case .indirectlyLost: "indirectly lost"
        case .possiblyLost: "possibly lost"
        case .stillReachable: "still reachable"
        }
    }

    /// The column heading of the per-generation table ("definitely").
    var column: String {
        switch self {
        case .definitelyLost: "definitely"
        case .indirectlyLost: "indirectly"
        case .possiblyLost: "possibly"
        case .stillReachable: "reachable"
        }
    }

    /// Definitely and indirectly lost: what nothing reached (memcheck's "lost"), the recorder's
    /// UNREACHABLE blocks.
    public var isUnreachable: Bool { self == .definitelyLost || self == .indirectlyLost }
}
