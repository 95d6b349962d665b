/// Rewrites a property list in the canonical layout of its own format, for `plist fmt`.
///
/// The file is read (format detected unless given) and written back by that format's writer:
/// XML in Apple's layout (`XMLPlistWriter`, tabs unless `xmlIndent` says otherwise), binary
/// as `BinaryPlistWriter` lays it out, OpenStep and JSON by their writers. Comments and
/// whitespace are not kept; values, and dictionary order unless `sortsKeys`, are. Formatting
/// formatted output again gives the same bytes.
public struct PlistFormatter: Sendable {
    /// Sort every dictionary's keys (`PlistValue.sortingKeys()`).
    public var sortsKeys: Bool
    /// Indentation of XML output; JSON and OpenStep have a fixed layout and binary none.
    public var xmlIndent: XMLIndent

    public init(sortsKeys: Bool = false, xmlIndent: XMLIndent = .tabs) {
        self.sortsKeys = sortsKeys
        self.xmlIndent = xmlIndent
    }

    /// One formatted document.
    public struct Output: Sendable {
        /// The format the input was in, and the output is in.
        public var format: PlistFormat
        /// The canonical bytes.
        public var bytes: [UInt8]
        /// True when `bytes` differ from the input: the file needs rewriting.
        public var isChanged: Bool
        /// The reader's remarks on the input (for example: a binary set read as an array).
        public var warnings: [PlistWarning]
    }

    /// Formats `bytes`; `format` nil means detect it. Throws the reader's error when the input
    /// does not parse (with its position, no file name), or the writer's when the value has no
    /// form in its own format.
    public func format(_ bytes: [UInt8], as format: PlistFormat? = nil) throws(PlistError) -> Output {
        let document = try PropertyListCoding.read(bytes, format: format)
        let canonical = try canonicalBytes(of: document.value, as: document.format)
        return Output(format: document.format, bytes: canonical, isChanged: canonical != bytes, warnings: document.warnings)
    }

    /// The canonical bytes of `value` in `format`, with this formatter's options.
    public func canonicalBytes(of value: PlistValue, as format: PlistFormat) throws(PlistError) -> [UInt8] {
        let value = sortsKeys ? value.sortingKeys() : value
        do {
            return try PropertyListCoding.write(value, as: format, xmlIndent: xmlIndent)
        } catch {
            throw PlistError(file: error.file, position: error.position, message: "cannot write as \(format): \(error.message)")
        }
    }
}
