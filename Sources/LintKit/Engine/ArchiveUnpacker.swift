import Diagnostics

/// Opens an archive named on `devkit lint`'s command line (`App.ipa`) as a directory: the
/// walk and the directory checks read what it unpacks, and findings name the archive
/// (`App.ipa!Payload/App.app/Info.plist`), not the temporary directory.
public protocol ArchiveUnpacker: Sendable {
    /// Whether `path` (a file) is an archive this unpacker opens, by name.
    func applies(to path: String) -> Bool
    /// Unpacks `path` into `directory` (new and empty): at least the files `lintable` accepts
    /// (by name) and whatever the directory checks read. Returns the directory to lint inside
    /// it and that directory's name inside the archive (`Payload/App.app`).
    func unpack(_ path: String, into directory: String, lintable: (String) -> Bool) throws(Diagnostic) -> (root: String, nameInArchive: String)
}
