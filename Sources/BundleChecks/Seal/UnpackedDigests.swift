import BinaryReading
import System

/// The files of an `.ipa`'s app that `IPAArchiveUnpacker` hashed instead of writing (large
/// resources the lint rules never read): their SHA-1 and SHA-256, which is all the seal check
/// needs of them. Kept beside the unpacked app in a hidden file (the walks skip it), one line a
/// file: `sha1-hex sha256-hex path-relative-to-the-app`. devkit writes and reads it within one
/// run, in its own temporary directory.
public struct UnpackedDigests: Sendable {
    /// The name of the file in the unpacked app directory.
    public static let fileName = ".devkit-unpacked-digests"
    /// Entries smaller than this are written to disk as usual (symlinks, small resources):
    /// hashing them instead saves nothing.
    public static let minimumSize = 64 << 10

    public struct Digest: Sendable, Equatable {
        public var sha1: [UInt8]
        public var sha256: [UInt8]
    }

    /// By path relative to the app directory.
    public private(set) var byPath: [String: Digest] = [:]

    public init() {}

    /// Hashes `bytes` as the file at `relative` (a path that can be written on one line).
    public mutating func add(_ relative: String, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            byPath[relative] = Digest(sha1: SealDigest.sha1(raw), sha256: SealDigest.sha256(raw))
        }
    }

    /// The digests of the paths under `directory` + "/", relative to it.
    public func relative(to directory: String) -> UnpackedDigests {
        var result = UnpackedDigests()
        for (path, digest) in byPath where path.hasPrefix(directory + "/") {
            result.byPath[String(path.dropFirst(directory.count + 1))] = digest
        }
        return result
    }

    /// Writes the digests into `app` (nothing when there are none).
    public func write(into app: String) throws(FileIOError) {
        guard !byPath.isEmpty else { return }
        var text = ""
        for (path, digest) in byPath.sorted(by: { $0.key < $1.key }) {
            text += hexString(digest.sha1) + " " + hexString(digest.sha256) + " " + path + "\n"
        }
        try FileIO.writeAtomically(Array(text.utf8), to: app + "/" + Self.fileName, durable: false)
    }

    /// The digests written into `app`; none when it has no such file (a directory on disk)
    /// or a line does not read (then the files read as missing, which the seal reports).
    public static func read(app: String) -> UnpackedDigests {
        var digests = UnpackedDigests()
        guard let bytes = try? FileIO.read(app + "/" + fileName) else { return digests }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let sha1 = LowercaseHex.bytes(fields[0]), let sha256 = LowercaseHex.bytes(fields[1]) else { continue }
            digests.byPath[String(decoding: fields[2], as: UTF8.self)] = Digest(sha1: sha1, sha256: sha256)
        }
        return digests
    }
}
