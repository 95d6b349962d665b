/// What libyaml's parser reports, as much of it as a configuration file needs. Lines and
/// columns are 1-based.
enum YAMLEvent: Sendable {
    /// A document begins (`---`, or implicitly).
    case documentStart(line: Int, column: Int)
    /// A scalar; `isPlain` when unquoted (only plain `true`/`yes` are booleans).
    case scalar(String, isPlain: Bool, anchor: String?, line: Int, column: Int)
    /// A sequence begins; its items follow until `.collectionEnd`.
    case sequenceStart(anchor: String?, line: Int, column: Int)
    /// A mapping begins; keys and values alternate until `.collectionEnd`.
    case mappingStart(anchor: String?, line: Int, column: Int)
    /// The innermost open sequence or mapping ends.
    case collectionEnd
    /// `*name`: the node anchored `&name` earlier.
    case alias(String, line: Int, column: Int)
    /// The end of the text.
    case streamEnd
    /// Stream start and document end: nothing to record.
    case other
}
