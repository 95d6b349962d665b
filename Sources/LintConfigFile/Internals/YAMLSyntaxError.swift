/// Text libyaml could not parse (or a structure `YAMLDocument` refuses): where, and libyaml's
/// description of the problem.
struct YAMLSyntaxError: Error, Sendable, Equatable {
    /// 1-based line of the problem.
    var line: Int
    /// 1-based column of the problem.
    var column: Int
    /// One line, e.g. "did not find expected node content (while parsing a flow node at 1:7)".
    var message: String
}
