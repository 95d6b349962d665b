import System

/// Unpacks the app of an `.ipa` into a directory, so that what reads apps from disk
/// (`devkit lint`'s walk and bundle checks) reads the one inside an archive. Entries the
/// caller does not want are never inflated (nor their bytes read).
///
/// The archive is checked as `IPAReader` checks it (no unsafe entry names, bounded entry
/// count, each entry bounded by size and by inflation ratio) and, since everything is
/// written, the total written is bounded too. Only `Payload/*.app/` is unpacked; entries are
/// written as plain files (a symbolic link stored in the archive becomes a file holding its
/// target's name, so nothing written can point outside the directory).
public enum IPAUnpacker {
    /// Most bytes written for one archive.
    public static let maximumUnpackedSize: UInt64 = 4 << 30

    /// Unpacks the files of the archive's app that `wanted` accepts (by entry name) into
    /// `directory`; returns the unpacked app's path and its name inside the archive
    /// (`Payload/App.app`).
    public static func unpackApp(_ path: String, into directory: String, limits: IPAReader.Limits = IPAReader.Limits(),
                                 wanted: (String) -> Bool = { _ in true }) throws(ProvisioningError) -> (app: String, nameInArchive: String) {
        let opened = try IPAReader.open(path, limits: limits)
        let root = opened.appRoot
        var written: UInt64 = 0
        try? FileIO.createDirectories(directory + "/" + root)
        for name in opened.entries.keys.sorted() where name.hasPrefix(root) && (name.hasSuffix("/") || wanted(name)) {
            let target = directory + "/" + name
            do {
                if name.hasSuffix("/") {
                    try FileIO.createDirectories(target)
                    continue
                }
                let parent = String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)])
                try FileIO.createDirectories(parent)
            } catch {
                throw ProvisioningError(file: directory, message: "cannot unpack \(name): \(error.reason)")
            }
            let entry = opened.entries[name]!
            let bytes = try IPAReader.extract(entry, from: opened.archive, limit: limits.maximumExecutableSize, limits: limits, archivePath: path)
            written += UInt64(bytes.count)
            guard written <= maximumUnpackedSize else {
                throw ProvisioningError(file: path, message: "unpacks to more than \(maximumUnpackedSize) bytes; refusing the archive")
            }
            do { try FileIO.writeAtomically(bytes, to: target, durable: false) } catch {
                throw ProvisioningError(file: directory, message: "cannot unpack \(name): \(error.reason)")
            }
        }
        let appName = String(root.dropLast())
        return (directory + "/" + appName, appName)
    }
}
