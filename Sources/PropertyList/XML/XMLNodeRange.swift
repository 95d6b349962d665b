internal import PlistXMLShim

/// Where one value sits in an XML plist's bytes (recorded by `readRecordingRanges`).
package struct XMLNodeRange: Hashable, Sendable {
    /// The value's element, from its start tag's `<` to just after its end tag's `>`.
    package var element: Range<Int>
    /// The `<key>` element of a dictionary entry; nil for array elements and the root.
    package var key: Range<Int>?
    /// Offset of a non-empty container's end tag (`</dict>`); nil for leaves and `<dict/>`.
    package var closingTag: Int?

    package init(element: Range<Int>, key: Range<Int>?, closingTag: Int?) {
        self.element = element
        self.key = key
        self.closingTag = closingTag
    }
}
