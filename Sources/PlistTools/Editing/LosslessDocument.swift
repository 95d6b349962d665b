import PropertyList

/// A text property list edited in place by splicing bytes into it and reading the result
/// again: what `XMLPlistDocument` and `OpenStepPlistDocument` share.
protocol LosslessDocument {
    /// The document's text.
    var bytes: [UInt8] { get }
    /// Reads `bytes`; throws when they are not a valid document of this kind.
    init(bytes: [UInt8]) throws(PlistError)
}

extension LosslessDocument {
    var layout: TextLayout { TextLayout(bytes: bytes) }
    func lineIndentation(at offset: Int) -> [UInt8] { layout.lineIndentation(at: offset) }
    func indentation(before offset: Int) -> [UInt8] { layout.indentation(before: offset) }

    /// Splices `replacement` in and re-reads; on any failure the document is unchanged.
    mutating func splice(_ range: Range<Int>, with replacement: [UInt8], path: KeyPath) throws(PlistError) {
        var edited = bytes
        edited.replaceSubrange(range, with: replacement)
        do {
            self = try Self(bytes: edited)
        } catch {
            throw PlistError(position: nil, message: "cannot edit \"\(path)\": the result would not be a valid property list (\(error.message))")
        }
    }
}
