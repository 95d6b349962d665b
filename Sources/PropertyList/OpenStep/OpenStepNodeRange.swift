/// Where one value sits in an OpenStep/.strings file (recorded by `readRecordingRanges`).
package struct OpenStepNodeRange: Hashable, Sendable {
    /// The value's text: a string with its quotes, `<…>`, or a container from bracket to bracket
    /// (a `.strings` top level: from its first key to the end of the text).
    package var element: Range<Int>
    /// A dictionary entry's key, with its quotes.
    package var key: Range<Int>?
    /// Just after the entry's `;` (dictionary) or its `,` (array element followed by one).
    package var entryEnd: Int?
    /// A container's `)` or `}`; nil for scalars and a brace-less `.strings` top level.
    var closingBracket: Int?
    /// The brace-less top level of a `.strings` file.
    package var isImplicit = false
    /// A `key;` entry (value equal to the key, no `=`).
    package var isShortcut = false
}
