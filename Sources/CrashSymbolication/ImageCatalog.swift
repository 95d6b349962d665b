import BinaryReading
import System
import ObjectFile
import Symbolication

/// The object files under the `--search-path` directories, by identity: every ELF file's
/// build-id and every Mach-O slice's UUID (binaries, dSYM DWARF files inside `.dSYM`
/// bundles, `.app` bundles' executables and frameworks). Built once per run; a crash log's
/// images are then looked up by identifier, never by name alone.
public struct ImageCatalog: Sendable {
    /// One identified object file (for a fat Mach-O file, one slice).
    public struct Entry: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// Code: an executable or library (its bytes hold the strings registers point at).
            case binary
            /// Debug information only: a dSYM's DWARF file or a separate ELF `.debug` file.
            case debugSymbols
        }
        public var path: String
        /// Build-id or UUID, lowercase hex without dashes.
        public var identifier: String
        /// The Mach-O slice's architecture (`arm64`, `x86_64`, …); nil for ELF.
        public var architecture: String?
        public var kind: Kind
        /// The file's last path component (a dSYM's DWARF file is named like its binary).
        public var name: String
    }

    public private(set) var entries: [Entry] = []
    /// Directories or files that could not be read, for a warning.
    public private(set) var problems: [String] = []
    private var byIdentifier: [String: [Int]] = [:]
    private var byName: [String: [Int]] = [:]

    /// Files larger than this are not considered (no debug file of an app is near it).
    static let maximumFileSize = 8 << 30
    /// A bound on the walk, so a search path of `/` ends.
    static let maximumFiles = 200_000

    /// `archiveCache`: where `.zip` search paths are unpacked (`SymbolArchive`); without it
    /// an archive is a problem, not read.
    public init(searchPaths: [String], archiveCache: String? = nil) {
        var seen = Set<String>()
        for var root in searchPaths {
            if root.hasSuffix(".zip"), DirectoryWalk.type(of: root) == .file {
                guard let archiveCache else {
                    problems.append("\(root): a .zip is unpacked into the cache directory, and there is none ($XDG_CACHE_HOME, $HOME or --no-cache)")
                    continue
                }
                do { root = try SymbolArchive.unpacked(root, cache: archiveCache) } catch {
                    problems.append(error.description)
                    continue
                }
            }
            switch DirectoryWalk.type(of: root) {
            case .file:
                add(file: root, seen: &seen)
            case .directory:
                let walk = DirectoryWalk.files(under: root, descend: { _ in true }, include: { _ in true })
                problems += walk.errors.map(\.description)
                for file in walk.files.prefix(Self.maximumFiles) { add(file: file, seen: &seen) }
                if walk.files.count > Self.maximumFiles {
                    problems.append("\(root): more than \(Self.maximumFiles) files; the rest were not looked at")
                }
            case .missing:
                problems.append("\(root): no such file or directory")
            case .other:
                problems.append("\(root): not a regular file or directory")
            }
        }
    }

    /// Entries with this identifier (any dashes and case), binaries first.
    public func entries(identifier: String) -> [Entry] {
        guard let key = normalizedIdentifier(identifier) else { return [] }
        return (byIdentifier[key] ?? []).map { entries[$0] }.sorted { $0.kind == .binary && $1.kind != .binary }
    }

    /// Entries whose file is called `name`.
    public func entries(named name: String) -> [Entry] {
        (byName[name] ?? []).map { entries[$0] }
    }

    private mutating func add(file path: String, seen: inout Set<String>) {
        guard seen.insert(path).inserted else { return }
        for entry in ObjectIdentity.read(path: path) {
            let position = entries.count
            entries.append(entry)
            byIdentifier[entry.identifier, default: []].append(position)
            byName[entry.name, default: []].append(position)
        }
    }
}
