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

    public init(searchPaths: [String]) {
        var seen = Set<String>()
        for root in searchPaths {
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

/// Reads just enough of a file to say what it is: magic, then build-id or UUIDs.
enum ObjectIdentity {
    static func read(path: String) -> [ImageCatalog.Entry] {
        guard hasObjectMagic(path), let file = try? MappedFile(path: path), file.bytes.count <= ImageCatalog.maximumFileSize else { return [] }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if ELFFile.hasMagic(file.bytes) {
            guard let elf = try? ELFFile(file), let buildID = try? elf.buildID(), !buildID.isEmpty,
                  elf.header.type != ELFHeader.relocatable else { return [] }
            let hasCode = elf.sections.contains { $0.isExecutable && $0.hasFileContents && $0.size > 0 }
            return [.init(path: path, identifier: hexString(buildID), architecture: nil, kind: hasCode ? .binary : .debugSymbols, name: name)]
        }
        guard let slices = try? MachOFile.images(file.bytes) else { return [] }
        let isDSYM = path.contains(".dSYM/Contents/Resources/DWARF/")
        var result: [ImageCatalog.Entry] = []
        for slice in slices {
            guard let contents = try? MachOContents.read(slice, bytes: slice.bytes(in: file.bytes)), let uuid = contents.uuid else { continue }
            // MH_DSYM (0xa) files and dSYM bundle contents hold debug information only.
            let kind: ImageCatalog.Entry.Kind = isDSYM || slice.fileType == 0xa ? .debugSymbols : .binary
            result.append(.init(path: path, identifier: hexString(uuid), architecture: slice.architecture, kind: kind, name: name))
        }
        return result
    }

    /// The first four bytes are an ELF or Mach-O (thin or fat) magic: most files under a
    /// search path are neither, and are skipped without being mapped.
    static func hasObjectMagic(_ path: String) -> Bool {
        // Regular files only: a crash log is untrusted and may name a FIFO or a device
        // (`/dev/tty`), whose open or read would block.
        guard DirectoryWalk.type(of: path) == .file, let prefix = try? FileIO.readPrefix(path, count: 4), prefix.count == 4 else { return false }
        return prefix == [0x7f, 0x45, 0x4c, 0x46] || MachOFile.isMachO(prefix)
    }
}

