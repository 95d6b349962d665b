internal import CLibZip
import System

// Every libzip call devkit makes goes through this file (STYLE.md §3): the one place that
// knows libzip's types, its return-code conventions and how its errors are captured.
// Callers see `ZipArchive`, `ZipEntry` and `ZipError` only.
//
// libzip is opened with dlopen on the first archive read, not linked: it brings libcrypto, and
// loading and initialising the two took 4.4 M of the 17.6 M instructions of `devkit --version`
// (Scripts/bench/RESULTS.md, start-up), paid by every command although only `.ipa` reading
// needs them. CLibZip gives the types and constants (zip.h); the functions come from
// `ZipFunctions`, resolved once.

/// libzip's functions, from `libzip.so.4` (Debian 12's libzip4) or `libzip.so.5` (libzip
/// 1.10 and later; every function used here is unchanged between the two).
private struct ZipFunctions: @unchecked Sendable {
    let errorInit: @convention(c) (UnsafeMutablePointer<zip_error_t>) -> Void
    let errorFini: @convention(c) (UnsafeMutablePointer<zip_error_t>) -> Void
    let errorText: @convention(c) (UnsafeMutablePointer<zip_error_t>) -> UnsafePointer<CChar>?
    let sourceBufferCreate: @convention(c) (UnsafeRawPointer?, UInt64, Int32, UnsafeMutablePointer<zip_error_t>?) -> OpaquePointer?
    let sourceFree: @convention(c) (OpaquePointer) -> Void
    let openFromSource: @convention(c) (OpaquePointer, Int32, UnsafeMutablePointer<zip_error_t>?) -> OpaquePointer?
    let entryCount: @convention(c) (OpaquePointer, UInt32) -> Int64
    let discard: @convention(c) (OpaquePointer) -> Void
    let statInit: @convention(c) (UnsafeMutablePointer<zip_stat_t>) -> Void
    let statIndex: @convention(c) (OpaquePointer, UInt64, UInt32, UnsafeMutablePointer<zip_stat_t>) -> Int32
    let archiveErrorText: @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
    let openIndex: @convention(c) (OpaquePointer, UInt64, UInt32) -> OpaquePointer?
    let close: @convention(c) (OpaquePointer) -> Int32
    let read: @convention(c) (OpaquePointer, UnsafeMutableRawPointer, UInt64) -> Int64
    let fileErrorText: @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?

    /// Loaded on first use (a global's lazy, thread-safe initialisation); a failure is kept.
    static let shared: Result<ZipFunctions, ZipError> = load()

    private static func load() -> Result<ZipFunctions, ZipError> {
        do throws(ZipError) {
            let library: DynamicLibrary
            do { library = try DynamicLibrary(firstOf: ["libzip.so.4", "libzip.so.5"]) } catch {
                throw ZipError(operation: "dlopen", message: "libzip cannot be loaded (\(error.reason)); install libzip4")
            }
            // The type of each function is the property's it initialises.
            func function<F>(_ name: String) throws(ZipError) -> F {
                guard let address = library.symbol(name) else {
                    throw ZipError(operation: "dlsym", message: "libzip has no \(name)")
                }
                return unsafeBitCast(address, to: F.self)
            }
            return .success(ZipFunctions(
                errorInit: try function("zip_error_init"),
                errorFini: try function("zip_error_fini"),
                errorText: try function("zip_error_strerror"),
                sourceBufferCreate: try function("zip_source_buffer_create"),
                sourceFree: try function("zip_source_free"),
                openFromSource: try function("zip_open_from_source"),
                entryCount: try function("zip_get_num_entries"),
                discard: try function("zip_discard"),
                statInit: try function("zip_stat_init"),
                statIndex: try function("zip_stat_index"),
                archiveErrorText: try function("zip_strerror"),
                openIndex: try function("zip_fopen_index"),
                close: try function("zip_fclose"),
                read: try function("zip_fread"),
                fileErrorText: try function("zip_file_strerror")))
        } catch {
            return .failure(error)
        }
    }

    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? "unknown libzip error"
    }
}

/// An archive opened by libzip over a file's mapped bytes (`zip_open_from_source` on a
/// `zip_source_buffer_create` source): nothing is extracted to disk and the file is opened
/// once, through `MappedFile` (regular files only).
public final class ZipArchive {
    private let zip: ZipFunctions
    private let archive: OpaquePointer
    /// libzip reads these bytes for as long as `archive` lives; they are released after it.
    private let file: MappedFile
    /// Number of entries in the central directory (`zip_get_num_entries`).
    public let count: Int

    /// Opens the archive in `file`. `ZIP_CHECKCONS` makes libzip compare every local header
    /// with its central-directory record, so an archive that reads differently by the two
    /// (a trick against one reader or another) is refused here.
    public init(file: MappedFile) throws(ZipError) {
        let zip = try ZipFunctions.shared.get()
        self.zip = zip
        self.file = file
        var error = zip_error_t()
        zip.errorInit(&error)
        defer { zip.errorFini(&error) }
        // Invariant: libzip never writes through this pointer (a read-only archive).
        guard let source = zip.sourceBufferCreate(file.bytes.baseAddress, UInt64(file.bytes.count), 0, &error) else {
            throw ZipError(operation: "zip_source_buffer_create", message: ZipFunctions.text(zip.errorText(&error)))
        }
        guard let archive = zip.openFromSource(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
            // On failure the source still belongs to the caller.
            zip.sourceFree(source)
            throw ZipError(operation: "zip_open_from_source", message: ZipFunctions.text(zip.errorText(&error)))
        }
        let entries = zip.entryCount(archive, 0)
        guard entries >= 0, let count = Int(exactly: entries) else {
            zip.discard(archive)
            throw ZipError(operation: "zip_get_num_entries", message: "the archive reports no entry count")
        }
        self.archive = archive
        self.count = count
    }

    /// Drops the archive's pages already read from the resident set (`MappedFile.releaseResidentPages`):
    /// libzip never writes through the mapping, so they are read again from the file if needed.
    public func releaseReadPages() {
        file.releaseResidentPages()
    }

    deinit {
        // Read-only: nothing to write back, so discard rather than close.
        zip.discard(archive)
        withExtendedLifetime(file) {}
    }

    /// The central-directory record of entry `index` (`zip_stat_index`): its name (UTF-8, or
    /// CP437 converted by libzip) and its stored and declared uncompressed sizes.
    public func entry(at index: Int) throws(ZipError) -> ZipEntry {
        var stat = zip_stat_t()
        zip.statInit(&stat)
        guard index >= 0, zip.statIndex(archive, UInt64(index), 0, &stat) == 0 else {
            throw ZipError(operation: "zip_stat_index", message: ZipFunctions.text(zip.archiveErrorText(archive)))
        }
        // Invariant: a central-directory record always has a name and both sizes; libzip says
        // which fields it filled in `valid`.
        let needed = UInt64(ZIP_STAT_NAME) | UInt64(ZIP_STAT_SIZE) | UInt64(ZIP_STAT_COMP_SIZE)
        guard stat.valid & needed == needed, let name = stat.name else {
            throw ZipError(operation: "zip_stat_index", message: "entry \(index) has no name or sizes")
        }
        return ZipEntry(index: index, name: String(cString: name), storedSize: stat.comp_size, declaredSize: stat.size)
    }

    /// Inflates `entry` into memory (`zip_fopen_index`, `zip_fread`), stopping as soon as
    /// more than `limit` bytes come out, whatever size the archive declared: nil then.
    /// libzip checks the CRC at the end of the data.
    public func read(_ entry: ZipEntry, limit: Int) throws(ZipError) -> [UInt8]? {
        guard let handle = zip.openIndex(archive, UInt64(entry.index), 0) else {
            throw ZipError(operation: "zip_fopen_index", message: ZipFunctions.text(zip.archiveErrorText(archive)))
        }
        defer { _ = zip.close(handle) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(clamping: min(entry.declaredSize, UInt64(max(limit, 0)))))
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { buffer -> Int64 in
                guard let base = buffer.baseAddress else { return 0 }
                return zip.read(handle, base, UInt64(buffer.count))
            }
            if n < 0 {
                throw ZipError(operation: "zip_fread", message: ZipFunctions.text(zip.fileErrorText(handle)))
            }
            if n == 0 { return bytes }
            // Invariant: never more than `limit` bytes held, however much the entry inflates.
            guard let count = Int(exactly: n), bytes.count + count <= limit else { return nil }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
