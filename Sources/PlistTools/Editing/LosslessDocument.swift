import PropertyList

/// A text property list edited in place by splicing bytes into it and reading the result
/// again: what `XMLPlistDocument` and `OpenStepPlistDocument` share.
protocol LosslessDocument {
    /// The document's text.
    var bytes: [UInt8] { get }
    /// The value the text holds.
    var value: PlistValue { get }
    /// Reads `bytes`; throws when they are not a valid document of this kind.
    init(bytes: [UInt8]) throws(PlistError)

    // The edits, each on a path `PlistEdit.check` accepted; on failure the document is unchanged.
    mutating func replace(_ path: KeyPath, with newValue: PlistValue) throws(PlistError)
    mutating func insert(_ newValue: PlistValue, at path: KeyPath) throws(PlistError)
    mutating func delete(_ path: KeyPath) throws(PlistError)
    mutating func renameKey(_ path: KeyPath, to newKey: String) throws(PlistError)
}

extension LosslessDocument {
    /// Checks `edit` against the value, then makes it.
    mutating func applyChecked(_ edit: PlistEdit) throws(PlistError) {
        try edit.check(in: value)
        switch edit {
        case .replace(let path, let newValue): try replace(path, with: newValue)
        case .insert(let path, let newValue): try insert(newValue, at: path)
        case .delete(let path): try delete(path)
        case .renameKey(let path, let newKey): try renameKey(path, to: newKey)
        }
    }

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
