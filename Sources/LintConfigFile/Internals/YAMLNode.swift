/// One node of a `YAMLDocument`; collections refer to their children by index into the
/// document's nodes, so an alias is a second reference, never a copy.
struct YAMLNode: Sendable {
    enum Content: Sendable {
        /// A scalar's text; `isPlain` when it was unquoted.
        case scalar(String, isPlain: Bool)
        /// A sequence's items.
        case sequence([Int])
        /// A mapping's pairs, in the file's order (keys may repeat; the last one wins where
        /// that matters).
        case mapping([(key: Int, value: Int)])
    }

    var content: Content
    /// 1-based line where the node starts.
    var line: Int
    /// 1-based column where the node starts.
    var column: Int
}
