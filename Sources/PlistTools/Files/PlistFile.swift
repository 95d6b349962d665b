import PropertyList
import System

/// Property-list files as the `devkit plist` commands read and write them: `-` is standard
/// input (named `<stdin>` in errors) or standard output, and every error names the file.
public enum PlistFile {
    /// The name errors use for `path`: `<stdin>` for `-`.
    public static func displayName(_ path: String) -> String {
        path == FileIO.standardStream ? "<stdin>" : path
    }

    /// Reads and parses one property list (format detected unless given); each reader warning
    /// goes to `warning` as a `path: warning: …` line.
    public static func load(_ path: String, format: PlistFormat?, warning: (String) -> Void) throws(PlistFileError) -> PlistDocument {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, kind: .propertyList) } catch { throw .io(error) }
        return try parse(bytes, named: path, format: format, warning: warning)
    }

    /// Parses bytes read from `path`, as `load` does.
    public static func parse(_ bytes: [UInt8], named path: String, format: PlistFormat?, warning: (String) -> Void) throws(PlistFileError) -> PlistDocument {
        do {
            let document = try PropertyListCoding.read(bytes, format: format)
            for message in document.warnings { warning("\(path): warning: \(message)\n") }
            return document
        } catch {
            throw .plist(error.inFile(displayName(path)))
        }
    }

    /// Leaves a document for process exit to reclaim. Freeing a 300k-value tree one object at
    /// a time is a measurable share of a conversion and buys nothing just before the process
    /// ends (clang's -disable-free does the same). Call only at the end of a command.
    public static func abandonAtExit(_ document: PlistDocument) {
        final class Box { let document: PlistDocument; init(_ d: PlistDocument) { document = d } }
        _ = Unmanaged.passRetained(Box(document))
    }

    /// The value's bytes in `format`; a value the format cannot hold is an error naming `source`.
    public static func serialize(_ value: PlistValue, as format: PlistFormat, source: String) throws(PlistFileError) -> [UInt8] {
        do { return try PropertyListCoding.write(value, as: format) } catch {
            throw .plist(PlistError(file: source, position: nil, message: "cannot write as \(format): \(error.message)"))
        }
    }

    /// Reads `file`, edits its bytes and writes them back atomically; on any error the file is
    /// untouched. The file stays locked from read to write (`LockedFile`), so concurrent devkit
    /// edits take turns; a writer that takes no lock makes the edit fail, nothing written.
    /// `force` replaces a read-only file or another user's file. `-` reads standard input and
    /// writes the result to standard output.
    public static func edit(_ file: String, backup: Bool, force: Bool = false, _ edit: ([UInt8]) throws(PlistError) -> [UInt8]) throws(PlistFileError) {
        if file == FileIO.standardStream {
            let bytes: [UInt8]
            do { bytes = try FileIO.read(file, kind: .propertyList) } catch { throw .io(error) }
            let edited: [UInt8]
            do { edited = try edit(bytes) } catch { throw .plist(error.inFile(displayName(file))) }
            do { return try FileIO.writeStandardOutput(edited) } catch { throw .io(error) }
        }
        let locked: LockedFile
        do { locked = try LockedFile(file) } catch { throw .io(error) }
        let edited: [UInt8]
        do { edited = try edit(locked.bytes) } catch { throw .plist(error.inFile(displayName(file))) }
        do { try locked.replace(with: edited, backup: backup, force: force) } catch { throw .io(error) }
    }

    /// Writes `edited` over `file` (standard output for `-`), keeping `original` as FILE~ when
    /// `backup` is set. An unchanged file is not touched (its mtime stays). The file is locked
    /// and must still hold `original`: otherwise it changed since it was read and nothing is
    /// written. `force` replaces a read-only file or another user's file.
    public static func replace(_ file: String, original: [UInt8], with edited: [UInt8], backup: Bool, force: Bool = false) throws(PlistFileError) {
        do throws(FileIOError) {
            if file == FileIO.standardStream { return try FileIO.writeStandardOutput(edited) }
            guard edited != original else { return }
            let locked = try LockedFile(file)
            guard locked.bytes == original else {
                throw FileIOError(path: file, reason: "changed while devkit was editing it; nothing written")
            }
            try locked.replace(with: edited, backup: backup, force: force)
        } catch { throw .io(error) }
    }

    /// Writes `bytes` to `path` (standard output for `-`), atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws(PlistFileError) {
        do { try FileIO.writeAtomically(bytes, to: path) } catch { throw .io(error) }
    }

    /// Converts `file` (format detected unless `inputFormat` is given) to `format`, written
    /// over the file when `inPlace` (keeping FILE~ when `backup`; `force` as for `replace`), else to `output` (standard
    /// output when nil or `-`).
    /// JSON refuses dates, data and UIDs (naming the first one's key path) unless `lossyJSON`,
    /// which writes dates and data as strings.
    ///
    /// XML, JSON and binary going to a file are written in pieces as they are made (`OutputDrain`),
    /// and a binary or XML file becomes XML or JSON without a value tree when it can
    /// (`PropertyListCoding.stream`); anything else, and every error, takes the tree.
    public static func convert(_ file: String, from inputFormat: PlistFormat?, to format: PlistFormat, output: String?,
                               inPlace: Bool, backup: Bool, force: Bool = false, lossyJSON: Bool = false,
                               warning: (String) -> Void) throws(PlistFileError) {
        let target = inPlace ? nil : output.flatMap { $0 == FileIO.standardStream ? nil : $0 }
        if let target, format != .openStep {
            return try convert(file, from: inputFormat, to: format, piecewiseTo: target, lossyJSON: lossyJSON, warning: warning)
        }
        let original: [UInt8]
        do { original = try FileIO.read(file, kind: .propertyList) } catch { throw .io(error) }
        if let source = PropertyListCoding.streamableSource(original, declared: inputFormat, to: format),
           let bytes = original.withUnsafeBytes({ PropertyListCoding.stream($0, from: source, to: format, lossyJSON: lossyJSON) }) {
            return try finishConversion(file, original: original, bytes: bytes, output: output, inPlace: inPlace, backup: backup, force: force)
        }
        let document = try parse(original, named: file, format: inputFormat, warning: warning)
        defer { abandonAtExit(document) }
        let bytes: [UInt8]
        if format == .json, !lossyJSON {
            do { bytes = try PropertyListCoding.writeStrictJSON(document.value, pretty: true) } catch {
                throw conversionError(error, file: file, format: format, lossyJSON: lossyJSON)
            }
        } else {
            bytes = try serialize(document.value, as: format, source: file)
        }
        try finishConversion(file, original: original, bytes: bytes, output: output, inPlace: inPlace, backup: backup, force: force)
    }

    /// `convert` to a file other than the input, in pieces. The input's bytes are dropped
    /// once parsed, before the output is made (peak memory: the tree, not the tree and the file).
    private static func convert(_ file: String, from inputFormat: PlistFormat?, to format: PlistFormat, piecewiseTo target: String,
                                lossyJSON: Bool, warning: (String) -> Void) throws(PlistFileError) {
        if try convertMappedBinary(file, declared: inputFormat, to: format, piecewiseTo: target, lossyJSON: lossyJSON) { return }
        let parsed: PlistDocument? = try {() throws(PlistFileError) -> PlistDocument? in
            let original: [UInt8]
            do throws(FileIOError) { original = try FileIO.read(file, kind: .propertyList) } catch { throw .io(error) }
            if let source = PropertyListCoding.streamableSource(original, declared: inputFormat, to: format) {
                let piece = try PiecewiseOutput(target)
                if let rest = original.withUnsafeBytes({ PropertyListCoding.stream($0, from: source, to: format, lossyJSON: lossyJSON, drain: piece.drain) }) {
                    try piece.finish(rest)
                    return nil
                }
            }
            return try parse(original, named: file, format: inputFormat, warning: warning)
        }()
        guard let document = parsed else { return }
        defer { abandonAtExit(document) }
        let piece = try PiecewiseOutput(target)
        let rest: [UInt8]
        do { rest = try PropertyListCoding.write(document.value, as: format, lossyJSON: lossyJSON, drain: piece.drain) } catch {
            throw conversionError(error, file: file, format: format, lossyJSON: lossyJSON)
        }
        try piece.finish(rest)
    }

    /// A binary plist file going to XML or JSON, transcoded straight from its mapping: reading
    /// a 21 MB file into memory took 8–12 ms, faulting its mapped pages in 1.5. False (nothing
    /// written) when the file cannot be mapped (standard input, a FIFO), is not binary, or the
    /// transcoder gave up on it (the general path then reads it and words the error).
    private static func convertMappedBinary(_ file: String, declared: PlistFormat?, to format: PlistFormat,
                                            piecewiseTo target: String, lossyJSON: Bool) throws(PlistFileError) -> Bool {
        guard file != FileIO.standardStream, declared == nil || declared == .binary, format == .xml || format == .json,
              let mapped = try? MappedFile(path: file, kind: .propertyList),
              (try? mapped.withTruncationGuard({ PlistFormat.detect($0) == .binary })) == true else { return false }
        let piece = try PiecewiseOutput(target)
        let rest: [UInt8]?
        do {
            rest = try mapped.withTruncationGuard { bytes in
                PropertyListCoding.stream(bytes, from: .binary, to: format, lossyJSON: lossyJSON, drain: piece.drain)
            }
        } catch { throw .io(error) }
        guard let rest else { return false }
        try piece.finish(rest)
        return true
    }

    private static func conversionError(_ error: PlistError, file: String, format: PlistFormat, lossyJSON: Bool) -> PlistFileError {
        if format == .json, !lossyJSON {
            return .plist(PlistError(file: file, position: nil, message: "cannot write as json: \(error.message) (--lossy writes dates and data as strings)"))
        }
        return .plist(PlistError(file: file, position: nil, message: "cannot write as \(format): \(error.message)"))
    }

    private static func finishConversion(_ file: String, original: [UInt8], bytes: [UInt8], output: String?,
                                         inPlace: Bool, backup: Bool, force: Bool) throws(PlistFileError) {
        if inPlace {
            try replace(file, original: original, with: bytes, backup: backup, force: force)
        } else {
            try write(bytes, to: output ?? FileIO.standardStream)
        }
    }
}
