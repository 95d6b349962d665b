import Diagnostics
import ElfUtils
import Symbolication
import System

/// Everything `devkit symbolicate` was asked, and the front end that does it: with
/// `binary`, addresses answered by an `AddressLookupSession`; without, or when some
/// arguments are files listing addresses, crash logs done by a `CrashLogSession`.
public struct SymbolicateRequest: Sendable {
    /// Addresses (with `binary`), or crash logs (without).
    public var inputs: [String]
    /// The executable or library the addresses belong to (`--binary`).
    public var binary: String?
    /// The slice of a fat Mach-O file (`--arch`).
    public var architecture: String?
    /// Where the image was loaded (`--load-address`): the addresses are runtime addresses.
    public var loadAddress: UInt64?
    /// Directories holding separate debug files (`--debug-dir`).
    public var debugDirectories: [String] = []
    /// The build-id/UUID the binary must have (`--uuid`).
    public var identifier: String?
    /// With `identifier`: symbolicate a mismatching binary anyway, marked unverified (`--force`).
    public var allowIdentifierMismatch = false
    /// How addresses are answered (`--output-style`).
    public var outputStyle: FrameOutputStyle = .llvm
    /// Show demangled names (`--no-demangle` turns it off).
    public var demangle = true
    /// The form of Swift names (`--names`); nil: `defaultNames`.
    public var names: NameForm?
    /// Only the outermost function of an inlined chain (`--no-inlines`).
    public var outermostOnly = false
    /// Report index build time, lookup rate and cache use (`--stats`).
    public var stats = false
    /// Read and write the index cache (`SymbolicationOptions.defaultCacheDirectory`).
    public var usesCache = true
    /// How crash logs are printed (`--format`).
    public var crashLogFormat: CrashLogFormat = .summary
    /// Directories or files to find a crash log's images in (`--search-path`).
    public var searchPaths: [String] = []
    /// For a core dump: the program that dumped it (`--executable`).
    public var executable: String?
    /// A file (one crash log) or directory (several) to write to (`--output`).
    public var output: String?
    /// debuginfod servers to fetch missing debug files from (`--debuginfod URL`); nil: those
    /// of `DEBUGINFOD_URLS`, if any.
    public var debuginfodServers: String?
    /// Never ask a debuginfod server (`--offline`), whatever `DEBUGINFOD_URLS` says.
    public var offline = false
    /// Group the crash logs (files and directories) by signature instead of symbolicating
    /// each (`--group`): a `CrashGroupSession`.
    public var group = false
    /// How groups are printed (`--format` with `--group`).
    public var groupFormat: CrashGroupFormat = .text

    /// A request with devkit's defaults for everything but the inputs.
    public init(inputs: [String]) { self.inputs = inputs }

    /// What the inputs are.
    public enum Route: Equatable, Sendable {
        /// `binary`'s addresses, from the arguments or (none given) standard input.
        case addresses(binary: String)
        /// Crash logs, or files listing addresses in `binary`, read like crash logs.
        case crashLogs([String])
        /// Crash logs and directories of them, grouped by signature.
        case groups([String])
    }

    /// Without `binary`, every input is a crash log. With it, an input that is not an address
    /// but a file lists addresses in that image; when there are such files, only they are read.
    public var route: Route {
        if group { return .groups(inputs) }
        guard let binary else { return .crashLogs(inputs) }
        let addressFiles = inputs.filter { HexAddress.parse($0) == nil && DirectoryWalk.type(of: $0) == .file }
        return addressFiles.isEmpty ? .addresses(binary: binary) : .crashLogs(addressFiles)
    }

    /// Without `--names`: full names for `--binary`'s addresses and address lists, as
    /// llvm-symbolizer prints them; Xcode's short names for crash logs, as Xcode shows them.
    public var defaultNames: NameForm { binary == nil || group ? .short : .full }

    /// Does what was asked, writing results to standard output (or `output`) and every
    /// warning, error and statistic line to `diagnostics`. The command's whole run: the images
    /// opened for crash logs are left for process exit to reclaim
    /// (`CrashLogSession.abandonsImagesAtExit`).
    public func run(diagnostics: (String) -> Void) throws(SymbolicateFailure) {
        var options = SymbolicationOptions()
        options.demangle = demangle
        options.names = names ?? defaultNames
        options.debugDirectories = debugDirectories
        options.architecture = architecture
        options.cacheDirectory = usesCache ? SymbolicationOptions.defaultCacheDirectory : nil
        options.debuginfod = DebuginfodSettings.resolve(option: debuginfodServers, offline: offline).map(DebuginfodClient.init)
        switch route {
        case .addresses(let binary):
            options.expectedIdentifier = identifier
            options.allowIdentifierMismatch = allowIdentifierMismatch
            var session: AddressLookupSession
            do {
                session = try AddressLookupSession(binary: binary, options: options, style: outputStyle, loadAddress: loadAddress,
                                                   outermostOnly: outermostOnly, measuresLookups: stats)
            } catch {
                throw SymbolicateFailure(problem: error.diagnostic)
            }
            for warning in session.image.warnings { diagnostics("\(warning)\n") }
            session.answer(inputs, diagnostics: diagnostics)
            if stats { diagnostics(session.statisticsText) }
            if session.badInputs > 0 { throw SymbolicateFailure(problem: nil) }
        case .crashLogs(let paths):
            // A crash log's images are checked against the identifiers the log gives; `identifier`
            // only applies to the image of address-list files.
            let image = binary.map { CrashLogSession.AddressListImage(path: $0, loadAddress: loadAddress, identifier: identifier) }
            var session = CrashLogSession(format: crashLogFormat, searchPaths: searchPaths, executable: executable, output: output,
                                          options: options, addressListImage: image)
            // The command ends when the logs are written.
            session.abandonsImagesAtExit = true
            let failures: Int
            do { failures = try session.symbolicate(paths, diagnostics: diagnostics) } catch {
                throw SymbolicateFailure(problem: error.diagnostic)
            }
            if failures > 0 { throw SymbolicateFailure(problem: nil) }
        case .groups(let paths):
            let session = CrashGroupSession(format: groupFormat, searchPaths: searchPaths, output: output, options: options)
            let report: CrashGroupReport
            do { report = try session.run(paths, diagnostics: diagnostics) } catch {
                throw SymbolicateFailure(problem: error.diagnostic)
            }
            // A partial failure is an input error (exit 2), as for several logs without
            // --group; the groups of the logs that were read are printed all the same.
            let total = report.logs + report.unreadable.count
            if !report.unreadable.isEmpty {
                throw SymbolicateFailure(problem: Diagnostic(message: "\(report.unreadable.count) of \(total) crash log\(total == 1 ? "" : "s") could not be read (warnings above); the others are grouped"))
            }
            if report.logs == 0 {
                throw SymbolicateFailure(problem: Diagnostic(message: "no crash logs found in \(paths.joined(separator: ", ")) (\(report.skipped) file\(report.skipped == 1 ? "" : "s") skipped: not crash logs)"))
            }
        }
    }
}
