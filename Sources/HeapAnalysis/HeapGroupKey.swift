/// How blocks are grouped in a report.
public enum HeapGroupKey: String, Sendable, CaseIterable {
    /// The allocating call site: the first frame outside the allocator libraries.
    case site
    /// The function of that call site.
    case function
    /// The Swift class for class instances, else `malloc N bytes` (Instruments' categories).
    case type
    /// The library (module) of the call site.
    case library
}
