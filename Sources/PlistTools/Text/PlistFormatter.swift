import Diagnostics
import PropertyList

/// Rewrites a property list in the canonical layout of its own format, for `plist fmt`.
///
/// The file is read (format detected unless given) and written back by that format's writer:
/// XML in Apple's layout (`XMLPlistWriter`, tabs unless `xmlIndent` says otherwise), binary
/// as `BinaryPlistWriter` lays it out, OpenStep and JSON by their writers; values, and
/// dictionary order unless `sortsKeys`, are kept. Formatting formatted output again gives the
/// same bytes.
///
/// Comments: a brace-less `.strings` file is laid out by `StringsFileFormatter`, which keeps
/// them. Any other file with comments is left as it is, with a warning, unless
/// `dropsComments`: the writers have no place for them, and losing them silently is worse
/// than not formatting.
public struct PlistFormatter: Sendable {
    /// Sort every dictionary's keys (`PlistValue.sortingKeys()`).
    public var sortsKeys: Bool
    /// Indentation of XML output; JSON and OpenStep have a fixed layout and binary none.
    public var xmlIndent: XMLIndent
    /// Format files with comments anyway (the comments are lost).
    public var dropsComments: Bool

    public init(sortsKeys: Bool = false, xmlIndent: XMLIndent = .tabs, dropsComments: Bool = false) {
        self.sortsKeys = sortsKeys
        self.xmlIndent = xmlIndent
        self.dropsComments = dropsComments
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
        if document.format == .openStep, !Self.isUTF16(bytes),
           let strings = try StringsFileFormatter.format(bytes, sortsKeys: sortsKeys) {
            return Output(format: .openStep, bytes: strings, isChanged: strings != bytes, warnings: document.warnings)
        }
        if !dropsComments, let comment = try Self.firstComment(bytes, format: document.format) {
            let warning = PlistWarning(position: comment, message: "has comments, which canonical formatting would drop; left as it is (--drop-comments formats it anyway)")
            return Output(format: document.format, bytes: bytes, isChanged: false, warnings: document.warnings + [warning])
        }
        let canonical = try canonicalBytes(of: document.value, as: document.format)
        return Output(format: document.format, bytes: canonical, isChanged: canonical != bytes, warnings: document.warnings)
    }

    private static func isUTF16(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || (bytes.count > 1 && (bytes[0] == 0 || bytes[1] == 0))
    }

    /// Where the file's first comment is, if it has one. XML: a `<!--` (it cannot appear
    /// unescaped in text, only in a CDATA section, where this errs on the side of keeping the
    /// file); OpenStep: what the reader skipped as a comment.
    private static func firstComment(_ bytes: [UInt8], format: PlistFormat) throws(PlistError) -> SourcePosition? {
        switch format {
        case .xml:
            let marker = Array("<!--".utf8)
            guard bytes.count >= marker.count else { return nil }
            var line = 1, column = 1
            for i in 0...(bytes.count - marker.count) {
                if bytes[i] == UInt8(ascii: "<"), bytes[i..<(i + marker.count)].elementsEqual(marker) {
                    return .text(line: line, column: column)
                }
                if bytes[i] == 0x0A { line += 1; column = 1 } else { column += 1 }
            }
            return nil
        case .openStep:
            guard !isUTF16(bytes) else { return nil }
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(PlistError) in try OpenStepReader.readRecordingRanges(raw) }
            }
            return try result.get().hasComments ? .text(line: 1, column: 1) : nil
        case .binary, .json:
            return nil
        }
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
