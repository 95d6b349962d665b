/// libzip refused an archive or an entry: the call that failed and libzip's text for why,
/// captured when it failed.
public struct ZipError: Error, Sendable, CustomStringConvertible {
    /// The libzip function that failed, e.g. `zip_open_from_source`.
    public var operation: String
    /// libzip's message (`zip_error_strerror`), e.g. "Not a zip archive".
    public var message: String

    public var description: String { message }

    /// libzip itself could not be loaded (`dlopen`, `dlsym`): nothing is wrong with the archive.
    public var isLibraryUnavailable: Bool { operation == "dlopen" || operation == "dlsym" }
}
