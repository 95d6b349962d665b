import Diagnostics
import LintKit
import Provisioning

/// `devkit lint App.ipa`: the app inside the archive, unpacked by `IPAUnpacker` (the
/// archive's names, sizes and inflation checked as for `devkit provision`), linted as
/// `devkit lint App.app` would lint it, bundle checks included. Only what the lint reads is
/// unpacked: the files the walk lints and the Mach-O candidates the bundle checks scan
/// (names without an extension, `.dylib`), not images, nibs or media.
public struct IPAArchiveUnpacker: ArchiveUnpacker {
    public init() {}

    public func applies(to path: String) -> Bool {
        path.hasSuffix(".ipa")
    }

    public func unpack(_ path: String, into directory: String, lintable: (String) -> Bool) throws(Diagnostic) -> (root: String, nameInArchive: String) {
        do {
            let (app, name) = try IPAUnpacker.unpackApp(path, into: directory) { name in
                let file = name.split(separator: "/").last ?? ""
                return lintable(name) || !file.contains(".") || file.hasSuffix(".dylib")
            }
            return (app, name)
        } catch {
            throw error.diagnostic
        }
    }
}
