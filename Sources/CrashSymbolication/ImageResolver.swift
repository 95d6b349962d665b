import CrashReport
import ElfUtils
import System
import Symbolication

/// Finds each image of a report: by identifier in the catalog of `--search-path`s, then at
/// the path the log names (checked against the identifier), then in `/usr/lib/debug/.build-id`,
/// then (an ELF report's image, with `debuginfod`) from debuginfod servers by build-id.
public struct ImageResolver: Sendable {
    public let catalog: ImageCatalog
    /// Also look at the paths the log names (on by default: a Linux crash on the machine
    /// that built it names its binaries where they are).
    public var useLoggedPaths = true
    /// Roots of `.build-id/xx/rest.debug` trees.
    public var debugRoots = ["/usr/lib/debug"]
    /// Asks debuginfod servers for the executable and debug file of an ELF image found
    /// nowhere here; nil: never.
    public var debuginfod: DebuginfodClient?

    public init(catalog: ImageCatalog) { self.catalog = catalog }

    /// `fetchesELF`: the report is an ELF one (a Swift backtrace from Linux, a core), whose
    /// identifiers are GNU build-ids a debuginfod server may know; Apple's UUIDs are not asked.
    public func resolve(_ image: CrashBinaryImage, reportArchitecture: String?, fetchesELF: Bool = false) -> ImageResolution {
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
        var fetchProblem: String?
        if binary == nil, symbols == nil, fetchesELF, let debuginfod, let buildID = LowercaseHex.bytes(identifier.utf8) {
            (binary, symbols, fetchProblem) = Self.fetch(buildID, identifier: identifier, from: debuginfod)
        }
        if binary != nil || symbols != nil {
            return ImageResolution(status: .found, symbolsPath: symbols ?? binary, binaryPath: binary,
                                   architecture: slice ?? architecture, verified: true, fetchProblem: fetchProblem)
        }
        // A file with the image's name but another identity is reported, never used.
        var candidates = catalog.entries(named: image.name)
        if useLoggedPaths, let path = image.path, !path.isEmpty { candidates += ObjectIdentity.read(path: path) }
        if let other = candidates.first(where: { architecture == nil || $0.architecture == nil || $0.architecture == architecture }) {
            return ImageResolution(status: .mismatched(path: other.path, identifier: other.identifier),
                                   symbolsPath: nil, binaryPath: nil, architecture: architecture, verified: false,
                                   fetchProblem: fetchProblem)
        }
        var missing = ImageResolution.missing
        missing.fetchProblem = fetchProblem
        return missing
    }

    /// The executable and debug file a debuginfod server has for `buildID` (libdebuginfod's
    /// cached copies), each checked to carry that build-id, and why either was not given when
    /// the reason is a failing server: a file the server does not have is what "missing" says.
    private static func fetch(_ buildID: [UInt8], identifier: String,
                              from client: DebuginfodClient) -> (binary: String?, symbols: String?, problem: String?) {
        var binary: String?, symbols: String?, problem: String?
        for artifact in [DebuginfodClient.Artifact.executable, .debugInfo] {
            switch client.fetch(artifact, buildID: buildID) {
            case .success(let path):
                guard ObjectIdentity.read(path: path).contains(where: { $0.identifier == identifier }) else {
                    problem = problem ?? "debuginfod (\(client.settings.servers)) gave \(path) for build-id \(identifier), which has another or none"
                    continue
                }
                if artifact == .executable { binary = path } else { symbols = path }
            case .failure(let error):
                if !error.isNotFound { problem = problem ?? error.description }
            }
        }
        return (binary, symbols, problem)
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
