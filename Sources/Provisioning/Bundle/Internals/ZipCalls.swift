internal import CLibZip
import System

// Every libzip call devkit makes goes through this file (STYLE.md §3): the one place that
// knows libzip's types, its return-code conventions and how its errors are captured.
// Callers see `ZipArchive`, `ZipEntry` and `ZipError` only.

/// An archive opened by libzip over a file's mapped bytes (`zip_open_from_source` on a
/// `zip_source_buffer_create` source): nothing is extracted to disk and the file is opened
/// once, through `MappedFile` (regular files only).
final class ZipArchive {
    private let archive: OpaquePointer
    /// libzip reads these bytes for as long as `archive` lives; they are released after it.
    private let file: MappedFile
    /// Number of entries in the central directory (`zip_get_num_entries`).
    let count: Int

    /// Opens the archive in `file`. `ZIP_CHECKCONS` makes libzip compare every local header
    /// with its central-directory record, so an archive that reads differently by the two
    /// (a trick against one reader or another) is refused here.
    init(file: MappedFile) throws(ZipError) {
        self.file = file
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        // Invariant: libzip never writes through this pointer (a read-only archive).
        guard let source = zip_source_buffer_create(file.bytes.baseAddress, UInt64(file.bytes.count), 0, &error) else {
            throw ZipError(operation: "zip_source_buffer_create", message: Self.text(&error))
        }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
            // On failure the source still belongs to the caller.
            zip_source_free(source)
            throw ZipError(operation: "zip_open_from_source", message: Self.text(&error))
        }
        let entries = zip_get_num_entries(archive, 0)
        guard entries >= 0, let count = Int(exactly: entries) else {
            zip_discard(archive)
            throw ZipError(operation: "zip_get_num_entries", message: "the archive reports no entry count")
        }
        self.archive = archive
        self.count = count
    }

    deinit {
        // Read-only: nothing to write back, so discard rather than close.
        zip_discard(archive)
        withExtendedLifetime(file) {}
    }

    /// The central-directory record of entry `index` (`zip_stat_index`): its name (UTF-8, or
    /// CP437 converted by libzip) and its stored and declared uncompressed sizes.
    func entry(at index: Int) throws(ZipError) -> ZipEntry {
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard index >= 0, zip_stat_index(archive, UInt64(index), 0, &stat) == 0 else {
            throw ZipError(operation: "zip_stat_index", message: String(cString: zip_strerror(archive)))
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
    func read(_ entry: ZipEntry, limit: Int) throws(ZipError) -> [UInt8]? {
        guard let handle = zip_fopen_index(archive, UInt64(entry.index), 0) else {
            throw ZipError(operation: "zip_fopen_index", message: String(cString: zip_strerror(archive)))
        }
        defer { zip_fclose(handle) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(clamping: min(entry.declaredSize, UInt64(max(limit, 0)))))
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { buffer -> Int64 in
                guard let base = buffer.baseAddress else { return 0 }
                return zip_fread(handle, base, UInt64(buffer.count))
            }
            if n < 0 {
                throw ZipError(operation: "zip_fread", message: String(cString: zip_file_strerror(handle)))
            }
            if n == 0 { return bytes }
            // Invariant: never more than `limit` bytes held, however much the entry inflates.
            guard let count = Int(exactly: n), bytes.count + count <= limit else { return nil }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    private static func text(_ error: inout zip_error_t) -> String {
        String(cString: zip_error_strerror(&error))
    }
}
