import PropertyList

/// The library side of `devkit plist edit`: which text an editor is shown, whether the edited
/// text is acceptable, and which bytes replace the file. Runs no processes and touches no files.
public struct PlistEditSession: Sendable {
    /// What the edit produced.
    public enum Outcome: Equatable, Sendable {
        /// The text is byte-identical to what was shown: leave the file alone.
        case unchanged
        /// Replace the file with these bytes.
        case write([UInt8])
    }

    /// The file's bytes as read at the start.
    public let original: [UInt8]
    /// The format the file is in (and is written back in).
    public let fileFormat: PlistFormat
    /// The text format shown in the editor.
    public let editFormat: PlistFormat
    /// The text shown to the editor.
    public let initialText: [UInt8]

    /// Reads `original`; `editAs` nil means the file's own text format, or XML for binary files.
    public init(original: [UInt8], editAs: PlistFormat? = nil) throws(PlistError) {
        let document = try PropertyListCoding.read(original)
        let editFormat = editAs ?? (document.format == .binary ? .xml : document.format)
        guard editFormat != .binary else {
            throw PlistError(position: nil, message: "cannot edit as binary; use --as xml, openstep or json")
        }
        self.original = original
        self.fileFormat = document.format
        self.editFormat = editFormat
        if editFormat == document.format {
            // The file's own text: comments and layout are what the user sees.
            initialText = original
        } else {
            initialText = try PropertyListCoding.write(document.value, as: editFormat)
        }
    }

    /// The extension for the temporary file, so editors pick the right syntax mode.
    public var fileExtension: String {
        switch editFormat {
        case .xml, .binary: "plist"
        case .json: "json"
        case .openStep: "txt"
        }
    }

    /// True when the edited text is written back verbatim: a text file edited in its own
    /// format keeps its comments and layout (XML, OpenStep/.strings, JSON).
    public var writesEditedTextVerbatim: Bool { fileFormat == editFormat }

    /// Validates `edited`: unchanged, or the bytes to write. A parse error (with its text
    /// position, no file name) means the edited text is not a valid property list.
    public func finish(edited: [UInt8]) throws(PlistError) -> Outcome {
        if edited == initialText { return .unchanged }
        let document = try PropertyListCoding.read(edited, format: editFormat)
        if writesEditedTextVerbatim { return edited == original ? .unchanged : .write(edited) }
        let bytes = try PropertyListCoding.write(document.value, as: fileFormat)
        return bytes == original ? .unchanged : .write(bytes)
    }
}
