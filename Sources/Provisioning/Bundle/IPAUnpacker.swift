import Diagnostics
import System
import ZipArchives

/// Unpacks the app of an `.ipa` into a directory, so that what reads apps from disk
/// (`devkit lint`'s walk and bundle checks) reads the one inside an archive. The archive is
/// checked as `IPAReader` checks it; entries the caller does not want are never inflated.
public enum IPAUnpacker {
    /// Unpacks the files of the archive's app that `wanted` accepts (by entry name) into
    /// `directory`; returns the unpacked app's path and its name inside the archive
    /// (`Payload/App.app`).
    ///
    /// `instead`: the app's entries `wanted` refuses are read and handed to it (name in the
    /// archive, bytes) instead of skipped (`UntrustedZip.unpack(into:entryLimit:where:instead:)`),
    /// when the app has a `_CodeSignature/CodeResources` somewhere (a seal to check them by).
    public static func unpackApp(_ path: String, into directory: String, limits: IPAReader.Limits = IPAReader.Limits(),
                                 wanted: (String) -> Bool = { _ in true },
                                 instead: ((String, [UInt8]) throws(Diagnostic) -> Void)? = nil) throws(ProvisioningError) -> (app: String, nameInArchive: String) {
        let (zip, root) = try IPAReader.open(path, limits: limits)
        do {
            try FileIO.createDirectories(directory + "/" + root)
            // Handing over costs a read of every entry; an app whose archive holds no
            // CodeResources has no seal that would need them.
            let sealed = zip.names.contains { $0.hasPrefix(root) && $0.hasSuffix("_CodeSignature/CodeResources") }
            if let instead, sealed {
                // Entries outside the app (SwiftSupport/, Symbols/) are neither read nor written.
                try zip.unpack(into: directory, entryLimit: limits.maximumExecutableSize, where: { $0.hasPrefix(root) && wanted($0) },
                               handOver: { $0.hasPrefix(root) }, instead: instead)
            } else {
                try zip.unpack(into: directory, entryLimit: limits.maximumExecutableSize) { $0.hasPrefix(root) && wanted($0) }
            }
        } catch let error as FileIOError {
            throw ProvisioningError(file: error.path, message: error.reason)
        } catch let error as Diagnostic {
            throw ProvisioningError(error)
        } catch {
            throw ProvisioningError(file: path, message: "\(error)")
        }
        let appName = String(root.dropLast())
        return (directory + "/" + appName, appName)
    }
}
