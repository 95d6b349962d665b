import CrashReport
import System
import Symbolication

/// Finds each image of a report: by identifier in the catalog of `--search-path`s, then at
/// the path the log names (checked against the identifier), then in `/usr/lib/debug/.build-id`.
public struct ImageResolver: Sendable {
    public let catalog: ImageCatalog
    /// Also look at the paths the log names (on by default: a Linux crash on the machine
    /// that built it names its binaries where they are).
    public var useLoggedPaths = true
    /// Roots of `.build-id/xx/rest.debug` trees.
    public var debugRoots = ["/usr/lib/debug"]

    public init(catalog: ImageCatalog) { self.catalog = catalog }

    public func resolve(_ image: CrashBinaryImage, reportArchitecture: String?) -> ImageResolution {
        let architecture = Self.machOArchitecture(image.arch ?? reportArchitecture)
        guard let identifier = image.uuid.flatMap(normalizedIdentifier), identifier.count >= 8 else {
            return resolveUnidentified(image, architecture: architecture)
        }
        var binary: String?
        var symbols: String?
        var slice: String?
        for entry in catalog.entries(identifier: identifier) {
            if entry.kind == .binary, binary == nil { binary = entry.path; slice = entry.architecture }
            if entry.kind == .debugSymbols, symbols == nil { symbols = entry.path; slice = slice ?? entry.architecture }
        }
        if useLoggedPaths, binary == nil, let path = image.path, !path.isEmpty,
           ObjectIdentity.read(path: path).contains(where: { $0.identifier == identifier && $0.kind == .binary }) {
            binary = path
        }
        // Without a binary, a separate debug file alone still names the frames (a binary's
        // own separate debug file is found by ImageSymbolizer).
        if symbols == nil, binary == nil {
            for root in debugRoots {
                let candidate = "\(root)/.build-id/\(identifier.prefix(2))/\(identifier.dropFirst(2)).debug"
                if ObjectIdentity.read(path: candidate).contains(where: { $0.identifier == identifier }) { symbols = candidate; break }
            }
        }
        if binary != nil || symbols != nil {
            return ImageResolution(status: .found, symbolsPath: symbols ?? binary, binaryPath: binary,
                                   architecture: slice ?? architecture, verified: true)
        }
        // A file with the image's name but another identity is reported, never used.
        var candidates = catalog.entries(named: image.name)
        if useLoggedPaths, let path = image.path, !path.isEmpty { candidates += ObjectIdentity.read(path: path) }
        if let other = candidates.first(where: { architecture == nil || $0.architecture == nil || $0.architecture == architecture }) {
            return ImageResolution(status: .mismatched(path: other.path, identifier: other.identifier),
                                   symbolsPath: nil, binaryPath: nil, architecture: architecture, verified: false)
        }
        return .missing
    }

    /// A log without identifiers (sanitizer reports, address lists): the named path, else a
    /// search-path file of that name; frames from it are marked unverified.
    private func resolveUnidentified(_ image: CrashBinaryImage, architecture: String?) -> ImageResolution {
        if useLoggedPaths, let path = image.path, DirectoryWalk.type(of: path) == .file {
            return ImageResolution(status: .found, symbolsPath: path, binaryPath: path, architecture: architecture, verified: false)
        }
        if let entry = catalog.entries(named: image.name).first(where: { $0.kind == .binary }) {
            return ImageResolution(status: .found, symbolsPath: entry.path, binaryPath: entry.path,
                                   architecture: entry.architecture ?? architecture, verified: false)
        }
        return .missing
    }

    /// Crash-log architecture names (`ARM-64`, `X86-64 (Native)`, `arm64e`) as Mach-O slice names.
    static func machOArchitecture(_ name: String?) -> String? {
        guard let name else { return nil }
        let lower = name.lowercased()
        if lower.hasPrefix("arm-64") || lower.hasPrefix("arm64") { return "arm64" }
        if lower.hasPrefix("x86-64") || lower.hasPrefix("x86_64") { return "x86_64" }
        if lower.hasPrefix("armv7") || lower.hasPrefix("arm") { return "arm" }
        if lower.hasPrefix("x86") || lower.hasPrefix("i386") { return "i386" }
        return nil
    }
}
