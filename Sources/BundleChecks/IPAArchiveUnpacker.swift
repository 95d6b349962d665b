import Diagnostics
import LintKit
import Provisioning
import System

/// `devkit lint App.ipa`: the app inside the archive, unpacked by `IPAUnpacker` (the
/// archive's names, sizes and inflation checked as for `devkit provision`), linted as
/// `devkit lint App.app` would lint it, bundle checks included. What the lint reads is
/// written to disk: the files the walk lints, the Mach-O candidates (names without an
/// extension, `.dylib`), profiles, and every small file. Every other file (images, media,
/// asset catalogs) is inflated once and only hashed, for `CodeSealCheck`, into
/// `UnpackedDigests`: a 200 MB archive is not written out again.
public struct IPAArchiveUnpacker: ArchiveUnpacker {
    public init() {}

    public func applies(to path: String) -> Bool {
        path.hasSuffix(".ipa")
    }

    public func unpack(_ path: String, into directory: String, lintable: (String) -> Bool) throws(Diagnostic) -> (root: String, nameInArchive: String) {
        // By name in the archive (`Payload/App.app/…`) until the app's name is known.
        var hashed = UnpackedDigests()
        do {
            let (app, name) = try IPAUnpacker.unpackApp(path, into: directory, wanted: { name in
                let file = name.split(separator: "/").last ?? ""
                return lintable(name) || !file.contains(".") || file.hasSuffix(".dylib") || file.hasSuffix(".mobileprovision")
            }, instead: { (entry: String, bytes: [UInt8]) throws(Diagnostic) in
                // Small files (and a symlink's target) are written; a name that cannot be a
                // line of the digest file too.
                guard bytes.count >= UnpackedDigests.minimumSize, !entry.contains("\n") else {
                    do throws(FileIOError) { try FileIO.writeAtomically(bytes, to: directory + "/" + entry, durable: false) } catch {
                        throw Diagnostic(file: directory, message: "cannot unpack \(entry): \(error.reason)")
                    }
                    return
                }
                hashed.add(entry, bytes)
            })
            try hashed.relative(to: name).write(into: app)
            return (app, name)
        } catch let error as ProvisioningError {
            throw error.diagnostic
        } catch let error as FileIOError {
            throw error.diagnostic
        } catch {
            throw Diagnostic(file: path, message: "\(error)")
        }
    }
}
