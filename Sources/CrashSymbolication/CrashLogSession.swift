import CoreDump
import CrashReport
import ObjectFile
import Symbolication
import System

/// `devkit symbolicate CRASHLOG...`: every log read, symbolicated with one catalog of the
/// search paths and one symbolicator (images opened once across logs), rendered, and written
/// to standard output or `output`. A log that cannot be read is reported and the others are
/// still done.
public struct CrashLogSession {
    /// How each report is printed.
    public var format: CrashLogFormat
    /// Directories or files to find the logs' images in, by UUID/build-id (`ImageCatalog`).
    public var searchPaths: [String]
    /// For a core dump: the program that dumped it (else found from the core's file notes).
    public var executable: String?
    /// A file (one log) or directory (several) to write to instead of standard output.
    public var output: String?
    /// How every image is opened (demangling, debug directories, cache, architecture).
    public var options: SymbolicationOptions
    /// `--binary BIN` with address-list files: the image every address belongs to.
    public var addressListImage: AddressListImage?
    /// Leave the images opened (their mapped indexes, files and names) for process exit to
    /// reclaim instead of freeing them when `symbolicate` returns: for the command's own run,
    /// which ends right after (0.15 ms of a 3.3 ms core dump, the unmapping and frees), as
    /// `PlistFile.abandonAtExit` does for documents. False for a caller that goes on.
    public var abandonsImagesAtExit = false

    /// The image of an address list, given on the command line.
    public struct AddressListImage: Sendable {
        public var path: String
        /// `--load-address`; nil: the addresses are file (link-time) addresses.
        public var loadAddress: UInt64?
        /// `--uuid`/`--build-id`, checked like a crash log's.
        public var identifier: String?

        public init(path: String, loadAddress: UInt64?, identifier: String?) {
            self.path = path
            self.loadAddress = loadAddress
            self.identifier = identifier
        }
    }

    public init(format: CrashLogFormat, searchPaths: [String], executable: String?, output: String?,
                options: SymbolicationOptions, addressListImage: AddressListImage? = nil) {
        self.format = format
        self.searchPaths = searchPaths
        self.executable = executable
        self.output = output
        self.options = options
        self.addressListImage = addressListImage
    }

    /// Symbolicates every log in `paths`; `diagnostics` receives each warning and error line
    /// (with its newline). Returns how many logs failed; throws when `output` cannot be made.
    public func symbolicate(_ paths: [String], diagnostics: (String) -> Void) throws(FileIOError) -> Int {
        // Archives are unpacked beside the symbol index cache (…/devkit/archives).
        let archiveCache = options.cacheDirectory.map { String($0[..<($0.lastIndex(of: "/") ?? $0.endIndex)]) + "/archives" }
        let catalog = ImageCatalog(searchPaths: searchPaths, archiveCache: archiveCache)
        for problem in catalog.problems { diagnostics("warning: --search-path \(problem)\n") }
        var resolver = ImageResolver(catalog: catalog)
        resolver.debuginfod = options.debuginfod
        let symbolicator = CrashSymbolicator(resolver: resolver, options: options)
        if let output, paths.count > 1 { try FileIO.createDirectories(output) }
        var failures = 0
        var written = ByteWriter()
        defer { written.deallocate() }
        for path in paths {
            do throws(LogFailure) {
                let text = try render(path, symbolicator: symbolicator, diagnostics: diagnostics)
                if let output {
                    let target = paths.count > 1 ? "\(output)/\(path.split(separator: "/").last.map(String.init) ?? path)" : output
                    // Atomic (temp + rename) always; fsynced only for one log: a thousand symbolicated
                    // logs would wait on the disk a thousand times, and are cheap to make again.
                    do { try FileIO.writeAtomically(text, to: target, durable: paths.count == 1) } catch { throw LogFailure(error) }
                } else {
                    written.write(text)
                    written.flushIfFull()
                }
            } catch {
                written.flush()
                diagnostics(error.message + "\n")
                failures += 1
            }
        }
        written.flush()
        if abandonsImagesAtExit { _ = Unmanaged.passRetained(symbolicator) }
        return failures
    }

    /// Why one log was not symbolicated: the line reported for it.
    private struct LogFailure: Error {
        var message: String

        init(_ message: String) { self.message = message }

        init(_ error: FileIOError) { message = "\(error.path): error: \(error.reason)" }
    }

    /// One log, read, symbolicated and rendered; warnings go to `diagnostics`.
    private func render(_ path: String, symbolicator: CrashSymbolicator, diagnostics: (String) -> Void) throws(LogFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        let document: CrashReportDocument
        if let contents = try readLog(path) {
            bytes = contents
            if let image = addressListImage {
                document = try addressList(contents, path: path, image: image, symbolicator: symbolicator)
            } else {
                document = try read(contents, path: path, as: nil)
            }
        } else {
            // A core is read by libdwfl from its path; it is never loaded whole.
            do { document = try CoreDumpReader.read(corePath: path, executable: executable, searchPaths: searchPaths) } catch {
                throw LogFailure(error.diagnostic.description)
            }
        }
        for warning in document.warnings {
            diagnostics("\(path):\(warning.line.map { "\($0):" } ?? "") warning: \(warning.message)\n")
        }
        let crash = symbolicator.symbolicate(document.report)
        for warning in crash.warnings { diagnostics("\(path): warning: \(warning)\n") }
        // The summary lists the images; the other formats keep the log's layout, so say here
        // why frames stayed raw.
        if format != .summary {
            for warning in crash.imageWarnings { diagnostics("\(path): warning: \(warning)\n") }
        }
        do {
            switch format {
            case .summary: return Array(CrashSummaryRenderer().render(crash).utf8)
            case .json: return try CrashJSONRenderer().render(crash)
            case .same: return try SameFormatRenderer().render(crash, original: bytes)
            }
        } catch {
            throw LogFailure("\(path): error: \(error.message)")
        }
    }

    /// The log's bytes, or nil for an ELF core (read once: the core check looks at the first
    /// bytes of the same open file).
    private func readLog(_ path: String) throws(LogFailure) -> [UInt8]? {
        do {
            return try FileIO.read(path, kind: .crashLog, unlessPrefix: ELFHeader.typePrefixCount) { ELFHeader.type(ofPrefix: $0) == ELFHeader.core }
        } catch {
            // `devkit symbolicate 0x1000`: an address without --binary, not a missing crash log.
            if HexAddress.parse(path) != nil {
                throw LogFailure("error: \"\(path)\" is no crash log; to symbolicate addresses, give --binary BIN")
            }
            throw LogFailure(error)
        }
    }

    /// The list's frames tied to `image`: its load address is `--load-address`, else its own
    /// link address (so the addresses are file addresses).
    private func addressList(_ bytes: [UInt8], path: String, image: AddressListImage,
                             symbolicator: CrashSymbolicator) throws(LogFailure) -> CrashReportDocument {
        var document = try read(bytes, path: path, as: .addressList)
        let symbolizer: ImageSymbolizer
        do { symbolizer = try symbolicator.session.image(at: image.path, identifier: image.identifier, architecture: options.architecture) } catch {
            throw LogFailure("\(error)")
        }
        var binary = CrashBinaryImage(name: image.path.split(separator: "/").last.map(String.init) ?? image.path)
        binary.path = image.path.hasPrefix("/") ? image.path : DirectoryWalk.currentDirectory() + "/" + image.path
        binary.loadAddress = image.loadAddress ?? symbolizer.imageBase
        binary.uuid = image.identifier ?? symbolizer.identifier
        document.report.binaryImages = [binary]
        return document
    }

    /// Parses a log (`format` nil: detected from its contents).
    private func read(_ bytes: [UInt8], path: String, as format: CrashReport.Format?) throws(LogFailure) -> CrashReportDocument {
        do {
            if let format { return try CrashReportParser.parse(bytes, as: format) }
            return try CrashReportParser.parse(bytes)
        } catch {
            throw LogFailure("\(path):\(error.line.map { "\($0):" } ?? "") error: \(error.message)")
        }
    }
}
