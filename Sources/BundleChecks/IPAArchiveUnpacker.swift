import Diagnostics
import LintKit
import Provisioning

/// `devkit lint App.ipa`: the app inside the archive, unpacked by `IPAUnpacker` (the
/// archive's names, sizes and inflation checked as for `devkit provision`), linted as
/// `devkit lint App.app` would lint it, bundle checks included. Every file of the app is
/// unpacked, images and media too: `CodeSealCheck` hashes each against
/// `_CodeSignature/CodeResources`, and a file left out would read as removed.
public struct IPAArchiveUnpacker: ArchiveUnpacker {
    public init() {}

    public func applies(to path: String) -> Bool {
        path.hasSuffix(".ipa")
    }

    public func unpack(_ path: String, into directory: String, lintable: (String) -> Bool) throws(Diagnostic) -> (root: String, nameInArchive: String) {
        do {
            let (app, name) = try IPAUnpacker.unpackApp(path, into: directory)
            return (app, name)
        } catch {
            throw error.diagnostic
        }
    }
}
