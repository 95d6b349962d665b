/// The one entry point for reading and writing property lists in any format.
public enum PropertyListCoding {
    /// Deepest container nesting any reader accepts; real plists stay far below it, and values
    /// are walked recursively (printing, writing, destruction), so it also guards the stack.
    public static let maxDepth = 512

    /// Reads a property list from bytes; `format` nil means detect it from the content.
    /// Errors carry the position but no file name: callers add it with `PlistError.inFile`.
    public static func read(_ bytes: [UInt8], format: PlistFormat? = nil) throws(PlistError) -> PlistDocument {
        // withUnsafeBytes rethrows untyped errors; carry the typed one out in a Result.
        let result = bytes.withUnsafeBytes { raw in Result { () throws(PlistError) in try read(raw, format: format) } }
        return try result.get()
    }

    public static func read(_ bytes: UnsafeRawBufferPointer, format: PlistFormat? = nil) throws(PlistError) -> PlistDocument {
        guard !bytes.isEmpty else {
            throw PlistError(position: .byteOffset(0), message: "file is empty")
        }
        let format = format ?? PlistFormat.detect(bytes)
        switch format {
        case .binary:
            let (value, warnings) = try BinaryPlistReader.read(bytes)
            return PlistDocument(value: value, format: .binary, warnings: warnings)
        case .xml:
            return PlistDocument(value: try XMLPlistReader.read(bytes), format: .xml, warnings: [])
        case .openStep:
            return PlistDocument(value: try OpenStepReader.read(bytes), format: .openStep, warnings: [])
        case .json:
            return PlistDocument(value: try JSONPlistReader.read(bytes), format: .json, warnings: [])
        }
    }

    /// Reads JSON keeping at most `maxArrayElements` of each array: later elements are
    /// parsed (the document must still be valid JSON) but not kept, and each cut array gives
    /// a warning with its position and length. For readers that use only a bounded prefix of
    /// untrusted arrays, so memory follows what they keep rather than the input.
    ///
    /// `maxDepth` (nil: the reader's 512 levels) raises the nesting limit for files that nest
    /// deeply by design; free such a value with `PlistValue.releaseIteratively`.
    public static func readJSON(_ bytes: UnsafeRawBufferPointer, maxArrayElements: Int, maxDepth: Int? = nil) throws(PlistError) -> PlistDocument {
        guard !bytes.isEmpty else {
            throw PlistError(position: .byteOffset(0), message: "file is empty")
        }
        let (value, warnings) = try JSONPlistReader.read(bytes, maxArrayElements: maxArrayElements, maxDepth: maxDepth ?? JSONPlistReader.maxDepth)
        return PlistDocument(value: value, format: .json, warnings: warnings)
    }

    /// Serializes `value`; throws when the format cannot hold it (JSON dates/UIDs, XML
    /// control characters, OpenStep booleans …), naming what could not be written.
    /// JSON as plutil writes it: on one line unless `pretty`, and refusing dates, data and
    /// UIDs (the error names the first one's key path) instead of writing them as strings.
    public static func writeStrictJSON(_ value: PlistValue, pretty: Bool) throws(PlistError) -> [UInt8] {
        try JSONPlistWriter.write(value, nonJSONValues: .reject, compact: !pretty)
    }

    public static func write(_ value: PlistValue, as format: PlistFormat) throws(PlistError) -> [UInt8] {
        switch format {
        case .binary: BinaryPlistWriter.write(value)
        case .xml: try XMLPlistWriter.write(value)
        case .openStep: try OpenStepWriter.write(value)
        case .json: try JSONPlistWriter.write(value)
        }
    }

    /// Serializes `value` like `write(_:as:)`, with XML indented by `xmlIndent` (the other
    /// formats have one layout and ignore it).
    public static func write(_ value: PlistValue, as format: PlistFormat, xmlIndent: XMLIndent) throws(PlistError) -> [UInt8] {
        switch format {
        case .xml: try XMLPlistWriter.write(value, indent: xmlIndent)
        default: try write(value, as: format)
        }
    }

    /// The format `stream` would read `bytes` as (`declared`, else detected) when it can turn
    /// them into `format` at all: binary or XML into XML or JSON; nil sends them to the tree.
    package static func streamableSource(_ bytes: [UInt8], declared: PlistFormat?, to format: PlistFormat) -> PlistFormat? {
        guard format == .xml || format == .json, !bytes.isEmpty else { return nil }
        let source = declared ?? PlistFormat.detect(bytes)
        return source == .binary || source == .xml ? source : nil
    }

    /// A binary or XML plist as XML or JSON (`lossyJSON`: dates and data as strings, else
    /// refused), streamed without building its value tree (`BinaryPlistTranscoder`,
    /// `XMLPlistTranscoder`); nil when the file has to go through the tree instead (`read`
    /// then `write`), which is also what words any error. The output is byte for byte what the
    /// tree gives. With a `drain`, most of it goes there in pieces as it is made and the rest
    /// is returned; after nil the drain has had a partial document.
    /// `compactJSON` writes JSON on one line without spaces, as `writeStrictJSON(pretty: false)`.
    package static func stream(_ bytes: UnsafeRawBufferPointer, from source: PlistFormat, to format: PlistFormat,
                               xmlIndent: XMLIndent = .tabs, lossyJSON: Bool, compactJSON: Bool = false,
                               drain: OutputDrain? = nil) -> [UInt8]? {
        func transcode<Sink: PlistEventSink & ~Copyable>(into sink: inout Sink) -> Bool {
            switch source {
            case .binary: BinaryPlistTranscoder.transcode(bytes, into: &sink)
            case .xml: XMLPlistTranscoder.transcode(bytes, into: &sink)
            case .json, .openStep: false
            }
        }
        // Output is usually 1–3× a binary file and about an XML file's size; deep or key-heavy
        // files grow the buffer.
        let capacity = drain == nil ? bytes.count * 2 + 4096 : OutputDrain.pieceSize * 2
        switch format {
        case .xml:
            var writer = XMLPlistWriter(reservingCapacity: capacity, indent: xmlIndent)
            writer.drain = drain
            guard transcode(into: &writer) else { return nil }
            return writer.finish()
        case .json:
            var emitter = JSONEmitter(nonJSONValues: lossyJSON ? .asStrings : .reject, compact: compactJSON)
            emitter.drain = drain
            emitter.out.bytes.reserveCapacity(capacity)
            guard transcode(into: &emitter) else { return nil }
            emitter.out.bytes.append(0x0A)
            return emitter.out.bytes
        case .binary, .openStep:
            return nil
        }
    }

    /// `write(_:as:)` (JSON: `writeStrictJSON(pretty: true)` unless `lossyJSON`) handing the
    /// output to `drain` in pieces as it is made; returns the rest. OpenStep is made whole
    /// and returned.
    package static func write(_ value: PlistValue, as format: PlistFormat, lossyJSON: Bool, drain: OutputDrain) throws(PlistError) -> [UInt8] {
        switch format {
        case .xml: try XMLPlistWriter.write(value, drain: drain)
        case .json: try JSONPlistWriter.write(value, nonJSONValues: lossyJSON ? .asStrings : .reject, drain: drain)
        case .binary: BinaryPlistWriter.write(value, drain: drain)
        case .openStep: try write(value, as: format)
        }
    }
}
